// Reading clusters for the API: rows with their environment, node counts, health and capability values, only
// those the caller's grants reach. Fleets have tens to hundreds of clusters, so one query and an in-memory page.
import type { ConfirmedBy } from './capabilities/capability-ledger.ts';
import { tlsView } from './credentials/cluster-tls.ts';
import type { PrismaClient } from '@/base/db/database.ts';
import { pageOf, parseSort } from '@/modules/kernel/core/index.ts';
import { canSeeCluster, clusterPermissions, type EffectiveGrant } from '@/modules/kernel/access/index.ts';
import type { z } from 'zod';
import type { clusterRowSchema, listClustersInput, nodeSchema } from './clusters.schema.ts';
import { splitBrainOf } from '../ha/split-brain-query.ts';

type ClusterRow = z.infer<typeof clusterRowSchema>;
type NodeView = z.infer<typeof nodeSchema>;

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

const clusterInclude = {
  environment: { select: { id: true, name: true } },
  nodes: {
    select: { brokerNodeId: true, lastSuccessAt: true, lastFailureAt: true, id: true, active: true, haPolledAt: true },
  },
  capabilities: { select: { capability: true, value: true } },
} as const;

async function findClusters(prisma: PrismaClient, where: object = {}) {
  return prisma.cluster.findMany({ where, include: clusterInclude, orderBy: { name: 'asc' } });
}

type Loaded = Awaited<ReturnType<typeof findClusters>>[number];

/** A node counts as failing when its last failure is newer than its last success (or it never succeeded). */
function isFailing(node: { lastSuccessAt: Date | null; lastFailureAt: Date | null }): boolean {
  if (!node.lastFailureAt) return false;
  return !node.lastSuccessAt || node.lastFailureAt > node.lastSuccessAt;
}

/** Nodes sharing a NodeID are one logical node; a node without one stands alone. */
function logicalKey(node: { id: string; brokerNodeId: string | null }): string {
  return node.brokerNodeId ?? `node:${node.id}`;
}

/** Logical nodes whose members were all polled for HA and none reads Active: nothing serves there. */
function unservedLogicalNodes(
  nodes: readonly { id: string; brokerNodeId: string | null; active: boolean | null; haPolledAt: Date | null }[],
): number {
  const groups = new Map<string, typeof nodes>();
  for (const node of nodes) groups.set(logicalKey(node), [...(groups.get(logicalKey(node)) ?? []), node]);
  return [...groups.values()].filter(
    (members) => members.every((node) => node.haPolledAt !== null) && !members.some((node) => node.active === true),
  ).length;
}

function toRow(cluster: Loaded): ClusterRow {
  const successes = cluster.nodes.map((node) => node.lastSuccessAt?.getTime() ?? 0).filter((time) => time > 0);
  return {
    id: cluster.id,
    name: cluster.name,
    description: cluster.description,
    environment: cluster.environment,
    username: cluster.username,
    nodeCount: cluster.nodes.length,
    logicalNodeCount: new Set(cluster.nodes.map(logicalKey)).size,
    failingNodeCount: cluster.nodes.filter(isFailing).length,
    unservedLogicalNodeCount: unservedLogicalNodes(cluster.nodes),
    lastSuccessAt: successes.length > 0 ? new Date(Math.max(...successes)).toISOString() : null,
    capabilities: Object.fromEntries(
      cluster.capabilities.map((row) => [row.capability, row.value as 'AVAILABLE' | 'UNAVAILABLE' | 'UNKNOWN']),
    ),
    createdAt: cluster.createdAt.toISOString(),
  };
}

export async function listClusters(
  prisma: PrismaClient,
  grants: readonly EffectiveGrant[],
  input: z.infer<typeof listClustersInput>,
) {
  const all = await findClusters(prisma);
  const q = input.q?.toLowerCase();
  const environment = input.environment?.toLowerCase();
  const visible = all
    .filter((cluster) => canSeeCluster(grants, { clusterId: cluster.id, environmentId: cluster.environmentId }))
    .filter(
      (cluster) =>
        !environment ||
        cluster.environment?.id === environment ||
        cluster.environment?.name.toLowerCase() === environment,
    )
    .filter(
      (cluster) =>
        !q ||
        [cluster.name, cluster.description, cluster.environment?.name ?? ''].some((text) =>
          text.toLowerCase().includes(q),
        ),
    )
    .map(toRow);
  const { field, direction } = parseSort<'name' | 'environment' | 'createdAt'>(input.sort);
  const keyOf = (row: ClusterRow) =>
    field === 'environment'
      ? `${row.environment?.name ?? ''}\u0000${row.name}`
      : field === 'createdAt'
        ? row.createdAt
        : row.name;
  visible.sort((a, b) => keyOf(a).localeCompare(keyOf(b)) * (direction === 'asc' ? 1 : -1));
  const start = (input.page - 1) * input.pageSize;
  return pageOf(visible.slice(start, start + input.pageSize), visible.length, input.page, input.pageSize);
}

export interface FleetCluster extends ClusterRow {
  /** Since when a logical node has two serving members (corroborated), or null. */
  readonly splitBrainSince: string | null;
}

/** Every cluster the grants reach, by name: the fleet's screens (tens to hundreds of clusters, one query). */
export async function visibleClusters(
  prisma: PrismaClient,
  grants: readonly EffectiveGrant[],
  permission?: string,
): Promise<FleetCluster[]> {
  const all = await findClusters(prisma);
  return all
    .filter((cluster) => {
      const location = { clusterId: cluster.id, environmentId: cluster.environmentId };
      return permission ? clusterPermissions(grants, location).has(permission) : canSeeCluster(grants, location);
    })
    .map((cluster) => ({ ...toRow(cluster), splitBrainSince: iso(cluster.splitBrainSince) }));
}

/** One cluster the guard has already let through. */
export async function getCluster(prisma: PrismaClient, clusterId: string) {
  const [cluster] = await findClusters(prisma, { id: clusterId });
  if (!cluster) return undefined;
  return {
    ...toRow(cluster),
    tls: tlsView(cluster.tls),
    splitBrain: await splitBrainOf(prisma, clusterId),
    updatedAt: cluster.updatedAt.toISOString(),
  };
}

export async function listNodes(prisma: PrismaClient, clusterId: string): Promise<NodeView[]> {
  const nodes = await prisma.clusterNode.findMany({
    where: { clusterId },
    orderBy: [{ brokerNodeId: 'asc' }, { role: 'desc' }, { managementUrl: 'asc' }],
  });
  const logical = new Map<string, string>();
  for (const node of nodes) if (!logical.has(logicalKey(node))) logical.set(logicalKey(node), String(logical.size + 1));
  return nodes.map((node) => ({
    id: node.id,
    managementUrl: node.managementUrl,
    amqpUrl: node.amqpUrl,
    brokerName: node.brokerName,
    brokerNodeId: node.brokerNodeId,
    role: node.role,
    discovered: node.discovered,
    urlSource: node.urlSource as 'given' | 'seed-port' | 'seed-offset' | 'not-confirmed',
    logicalNode: logical.get(logicalKey(node)) ?? '?',
    active: node.active,
    started: node.started,
    backup: node.backup,
    replicaSync: node.replicaSync,
    serving: node.serving,
    haPolledAt: iso(node.haPolledAt),
    lastSuccessAt: iso(node.lastSuccessAt),
    lastFailureAt: iso(node.lastFailureAt),
    lastError: node.lastError,
  }));
}

export async function listCapabilities(prisma: PrismaClient, clusterId: string) {
  const rows = await prisma.clusterCapability.findMany({ where: { clusterId }, orderBy: { capability: 'asc' } });
  return rows.map((row) => ({
    capability: row.capability,
    value: row.value as 'AVAILABLE' | 'UNAVAILABLE' | 'UNKNOWN',
    detail: row.detail,
    snippet: row.snippet,
    checkedAt: row.checkedAt.toISOString(),
    confirmedBy: row.confirmedBy as ConfirmedBy,
    availableAt: row.availableAt?.toISOString() ?? null,
  }));
}
