// Which stream a page listens on: a cluster's pages (`/clusters/<id>/…`) get that cluster's connection, so its
// scrape, topology and queue signals reach them; every other page the installation scope (job health). One
// connection at a time, carrying every enabled module's topics; moving between clusters moves it.
export const INSTALLATION_SCOPE = '00000000-0000-0000-0000-000000000000';

const CLUSTER_PATH = /^\/clusters\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\/|$)/i;

export function streamScopeOf(pathname: string): string {
  return CLUSTER_PATH.exec(pathname)?.[1]?.toLowerCase() ?? INSTALLATION_SCOPE;
}
