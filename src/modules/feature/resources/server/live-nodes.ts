// Asking every serving node of a cluster at once, one management POST each, through the node limiter: each node's
// answer or its classified failure, tagged with the logical node it belongs to. A passive backup is never asked
// (the clusters module chooses the nodes). Clients are kept per node for the process and made again when the
// node's endpoint or credentials change (the clusters module keeps them).
import type { PrismaClient } from '@/base/db/database.ts';
import { readManagementLimits, type ManagementClient } from '@/modules/platform/broker/index.ts';
import {
  loadLiveThroughTargets,
  managementClientFor,
  nodeFailureOf,
  type NodeFailure,
} from '@/modules/platform/clusters/index.ts';

export interface NodeTag {
  readonly nodeId: string;
  /** The broker's name, or its management URL while the name is not known. */
  readonly nodeName: string;
  /** The NodeID a primary shares with its backup: rows of both members are one logical node's. */
  readonly logicalNode: string;
}

export type { NodeFailure };

export type NodeAnswer<Value> =
  | { readonly node: NodeTag; readonly ok: true; readonly value: Value }
  | { readonly node: NodeTag; readonly ok: false; readonly failure: NodeFailure };

export interface LiveRuntime {
  readonly prisma: PrismaClient;
  readonly settings: { value(key: string): unknown };
}

/**
 * `ask` once per live-through node of the cluster, all at once. Undefined when the cluster does not exist (the
 * access guard has answered for it already; a cluster removed meanwhile reads as none).
 */
export async function askServingNodes<Value>(
  runtime: LiveRuntime,
  clusterId: string,
  ask: (client: ManagementClient) => Promise<Value>,
): Promise<Array<NodeAnswer<Value>> | undefined> {
  const targets = await loadLiveThroughTargets(runtime.prisma, clusterId);
  if (!targets) return undefined;
  const limits = readManagementLimits((key) => runtime.settings.value(key));
  return Promise.all(
    targets.nodes.map(async (target): Promise<NodeAnswer<Value>> => {
      const node = { nodeId: target.nodeId, nodeName: target.label, logicalNode: target.logicalNode };
      try {
        const value = await ask(managementClientFor(target.nodeId, target.endpoint, limits));
        return { node, ok: true, value };
      } catch (error) {
        return { node, ok: false, failure: nodeFailureOf(error, target.endpoint.url) };
      }
    }),
  );
}
