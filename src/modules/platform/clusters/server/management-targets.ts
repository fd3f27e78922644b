// A cluster's management targets: its nodes with their management endpoints, credentials opened with the key ring
// and TLS. The only code that opens a cluster's credentials for another module (the scrape); the clear password
// lives only in the management clients that the caller makes from these endpoints.
import type { PrismaClient } from '@/base/db/database.ts';
import type { ManagementEndpoint } from '@/modules/platform/broker/index.ts';
import { processKeys } from '@/modules/platform/governance/index.ts';
import { openPassword } from './credentials/password-cipher.ts';
import { openTls } from './credentials/cluster-tls.ts';
import { openCredentials } from './credentials/credentials-unreadable.ts';

interface ManagementTargetNode {
  readonly nodeId: string;
  /** The broker's name once known, else its management URL: how the node is named in words. */
  readonly label: string;
  readonly endpoint: ManagementEndpoint;
  /** The broker's NodeID, shared by a primary and its backup (one logical node); the node's own key until known. */
  readonly logicalNode: string;
  /** Serving clients by the last HA pass (a passive backup does not). */
  readonly serving: boolean;
  /** Polled or registered as a backup. */
  readonly backup: boolean;
}

export interface ManagementTargets {
  readonly clusterId: string;
  readonly name: string;
  readonly nodes: readonly ManagementTargetNode[];
}

/**
 * Undefined when the cluster no longer exists; throws a 409 `credentials-unreadable` ProblemError when its password
 * or client certificate cannot be opened.
 */
export async function loadManagementTargets(
  prisma: PrismaClient,
  clusterId: string,
): Promise<ManagementTargets | undefined> {
  const cluster = await prisma.cluster.findUnique({ where: { id: clusterId } });
  if (!cluster) return undefined;
  const nodes = await prisma.clusterNode.findMany({ where: { clusterId }, orderBy: { createdAt: 'asc' } });
  const password = openCredentials(() => openPassword(processKeys(), cluster));
  const tls: ManagementEndpoint['tls'] = openCredentials(() => openTls(processKeys(), cluster));
  return {
    clusterId,
    name: cluster.name,
    nodes: nodes.map((node) => ({
      nodeId: node.id,
      label: node.brokerName ?? node.managementUrl,
      endpoint: { url: node.managementUrl, user: cluster.username, password, ...(tls ? { tls } : {}) },
      logicalNode: node.brokerNodeId ?? `node:${node.id}`,
      serving: node.serving,
      backup: node.backup ?? node.role === 'BACKUP',
    })),
  };
}

/**
 * The nodes a live-through read asks: every serving node (two members of one logical node only during a
 * split-brain). A logical node none of whose members serves yet (registered, not yet through an HA pass) is asked
 * through its members that are not backups, so a new cluster answers at once; a passive backup is never asked.
 */
export async function loadLiveThroughTargets(
  prisma: PrismaClient,
  clusterId: string,
): Promise<ManagementTargets | undefined> {
  const targets = await loadManagementTargets(prisma, clusterId);
  if (!targets) return undefined;
  const servingLogical = new Set(targets.nodes.filter((node) => node.serving).map((node) => node.logicalNode));
  const asked = targets.nodes.filter((node) => node.serving || (!servingLogical.has(node.logicalNode) && !node.backup));
  return { ...targets, nodes: asked };
}

/** Every registered cluster's id, oldest first: what the scrape's ownership pass walks. */
export async function listClusterIds(prisma: PrismaClient): Promise<string[]> {
  const clusters = await prisma.cluster.findMany({ select: { id: true }, orderBy: { createdAt: 'asc' } });
  return clusters.map((cluster) => cluster.id);
}

/** Where each cluster sits (its name and environment), or the one cluster named: a light read for evaluators. */
export async function listClusterLocations(
  prisma: PrismaClient,
  clusterId?: string,
): Promise<{ id: string; name: string; environmentId: string | null }[]> {
  return prisma.cluster.findMany({
    where: clusterId ? { id: clusterId } : {},
    select: { id: true, name: true, environmentId: true },
    orderBy: { name: 'asc' },
  });
}

/** Every node's last management poll and whether it serves, for the scrape's sweeps view, health and /metrics. */
export function listPolledNodes(prisma: PrismaClient, clusterId?: string) {
  return prisma.clusterNode.findMany({
    where: clusterId ? { clusterId } : {},
    select: {
      id: true,
      clusterId: true,
      managementUrl: true,
      brokerName: true,
      serving: true,
      lastSuccessAt: true,
      lastFailureAt: true,
      lastError: true,
    },
    orderBy: [{ clusterId: 'asc' }, { createdAt: 'asc' }],
  });
}
