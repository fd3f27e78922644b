// The nodes a plan is computed for and applied to: one serving member per logical node (the command sequence's own
// choice, clusters' loadCommandTargets), in a fixed order so the canary is always the same node (the first by name),
// and each node's configuration read in at most two bulk POSTs (broker's readConfigSnapshot).
import type { PrismaClient } from '@/base/db/database.ts';
import type { SettingsReader } from '@/modules/kernel/plugin/index.ts';
import {
  managementLimitsOf,
  readConfigSnapshot,
  type ConfigSnapshot,
  type ManagementClient,
} from '@/modules/platform/broker/index.ts';
import {
  getCluster,
  loadCommandTargets,
  managementClientFor,
  nodeFailureOf,
  type NodeFailure,
} from '@/modules/platform/clusters/index.ts';
import type { ConfigDocument } from '../model/document.ts';
import { coveredAddresses } from './in-force.ts';

export interface LiveNode {
  readonly nodeId: string;
  readonly nodeName: string;
  readonly client: ManagementClient;
}

export interface NodeRead {
  readonly node: LiveNode;
  readonly snapshot: ConfigSnapshot | null;
  readonly failure: NodeFailure | null;
}

export interface LiveRuntime {
  readonly prisma: PrismaClient;
  readonly settings: SettingsReader;
}

/** Undefined when the cluster does not exist; the canary first. */
export async function liveNodesOf(
  runtime: LiveRuntime,
  clusterId: string,
): Promise<{ clusterName: string; serviceUser: string; nodes: LiveNode[] } | undefined> {
  const found = await loadCommandTargets(runtime.prisma, clusterId);
  if (!found) return undefined;
  const cluster = await getCluster(runtime.prisma, clusterId);
  const limits = managementLimitsOf(runtime.settings);
  const nodes = found.targets
    .map((target) => ({
      nodeId: target.nodeId,
      nodeName: target.nodeName,
      client: managementClientFor(target.nodeId, target.endpoint, limits),
    }))
    .sort((a, b) => a.nodeName.localeCompare(b.nodeName));
  return { clusterName: found.clusterName, serviceUser: cluster?.username ?? '', nodes };
}

/** `${kind}:${key}` of the items Flotilla applied on a node (config_applied_item). */
export type AppliedKeys = ReadonlySet<string>;

/** The matches of one kind Flotilla applied, so a match no longer declared is read (and can be planned away). */
const appliedMatches = (applied: AppliedKeys, kind: 'addressSetting' | 'securitySetting') =>
  [...applied].filter((key) => key.startsWith(`${kind}:`)).map((key) => key.slice(kind.length + 1));

/** What management shows of the document's items (and of what was applied there) on one node; a failure is kept. */
export async function readNode(
  node: LiveNode,
  document: ConfigDocument,
  serviceUser: string,
  applied: AppliedKeys = new Set(),
): Promise<NodeRead> {
  try {
    const snapshot = await readConfigSnapshot(node.client, {
      addressMatches: [
        ...new Set([
          '#',
          ...document.addressSettings.map((item) => item.match),
          ...appliedMatches(applied, 'addressSetting'),
        ]),
      ],
      securityMatches: [
        ...new Set([
          '#',
          ...document.securitySettings.map((item) => item.match),
          ...appliedMatches(applied, 'securitySetting'),
        ]),
      ],
      inForceFor: (first) => coveredAddresses(document, first),
      serviceUser: serviceUser || undefined,
    });
    return { node, snapshot, failure: null };
  } catch (error) {
    return { node, snapshot: null, failure: nodeFailureOf(error, node.client.nodeKey) };
  }
}

export function readNodes(
  nodes: readonly LiveNode[],
  document: ConfigDocument,
  serviceUser: string,
  appliedByNode: ReadonlyMap<string, AppliedKeys> = new Map(),
) {
  return Promise.all(nodes.map((node) => readNode(node, document, serviceUser, appliedByNode.get(node.nodeId))));
}
