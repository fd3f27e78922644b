// What the scraper needs of a cluster: its nodes and the management credentials in clear, read from the clusters
// module's tables and opened with its key ring. The clear password lives only in the management clients.
import type { PrismaClient } from '@/server/db/database.ts';
import type { ManagementEndpoint } from '../../broker/management/management-client.ts';
import { openPassword } from '../../clusters/server/credentials/password-cipher.ts';
import { processKeys } from '../../clusters/server/credentials/secret-key.ts';

export interface ScrapeTargetNode {
  readonly nodeId: string;
  readonly endpoint: ManagementEndpoint;
}

export interface ScrapeTarget {
  readonly clusterId: string;
  readonly name: string;
  readonly nodes: readonly ScrapeTargetNode[];
}

function tlsOf(raw: unknown): ManagementEndpoint['tls'] {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const pick = (key: string) => {
    const value = (raw as Record<string, unknown>)[key];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const tls = { ca: pick('ca'), cert: pick('cert'), key: pick('key') };
  return tls.ca || tls.cert || tls.key ? tls : undefined;
}

/** Undefined when the cluster no longer exists; throws CredentialError when its password cannot be opened. */
export async function loadScrapeTarget(prisma: PrismaClient, clusterId: string): Promise<ScrapeTarget | undefined> {
  const cluster = await prisma.cluster.findUnique({ where: { id: clusterId } });
  if (!cluster) return undefined;
  const nodes = await prisma.clusterNode.findMany({ where: { clusterId }, orderBy: { createdAt: 'asc' } });
  const password = openPassword(processKeys(), { cipher: cluster.passwordCipher, keyId: cluster.passwordKeyId });
  const tls = tlsOf(cluster.tls);
  return {
    clusterId,
    name: cluster.name,
    nodes: nodes.map((node) => ({
      nodeId: node.id,
      endpoint: { url: node.managementUrl, user: cluster.username, password, ...(tls ? { tls } : {}) },
    })),
  };
}
