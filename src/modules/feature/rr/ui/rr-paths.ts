// Where the request-reply screens live: a cluster's flows, and one request address's flow (the address in the query
// string, so any address name fits and a link to it can be shared).
export const rrHomePath = '/rr';

export const rrFlowsPath = (clusterId: string) => `/clusters/${encodeURIComponent(clusterId)}/rr`;

export function rrFlowPath(clusterId: string, address: string, window?: string): string {
  const params = new URLSearchParams({ address });
  if (window && window !== DEFAULT_WINDOW) params.set('window', window);
  return `${rrFlowsPath(clusterId)}/flow?${params.toString()}`;
}

/** The windows the server reads over (rr.schema.ts), in order; the default is the server's. */
export const WINDOWS = ['15m', '1h', '6h', '24h', '7d'] as const;
export type RrWindow = (typeof WINDOWS)[number];
export const DEFAULT_WINDOW: RrWindow = '1h';
