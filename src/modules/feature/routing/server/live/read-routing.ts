// A cluster's routing configuration as each node holds it: one serving member per logical node (the command
// sequence's choice, clusters' loadCommandTargets; a passive backup is never asked), each read in at most two bulk
// POSTs (broker's readRoutingSnapshot) and converted to the view the graph is built from. One read per cluster is
// shared for routing.cache-ttl; a divert written through Flotilla ends it (forgetRoutingViews).
import type { PrismaClient } from '@/base/db/database.ts';
import { LiveCache } from '@/base/live-cache.ts';
import type { SettingsReader } from '@/modules/kernel/plugin/index.ts';
import { managementLimitsOf, readRoutingSnapshot, type RoutingSnapshot } from '@/modules/platform/broker/index.ts';
import {
  loadCommandTargets,
  managementClientFor,
  nodeFailureOf,
  type NodeFailure,
} from '@/modules/platform/clusters/index.ts';
import type { MessageLoadBalancing, RoutingNodeView } from '../../model/routing-view.ts';
import { ROUTING_SETTINGS } from '../routing.settings.ts';

export interface RoutingRead {
  readonly views: RoutingNodeView[];
  readonly failures: Array<{ nodeId: string; nodeName: string; failure: NodeFailure }>;
  readonly readAt: Date;
}

export interface RoutingRuntime {
  readonly prisma: PrismaClient;
  readonly settings: SettingsReader;
}

/** One entry per cluster. */
const cache = new LiveCache<'routing', RoutingRead | undefined>();

/** Drops the kept read of a cluster (of every cluster without one): the next read asks the brokers. */
export function forgetRoutingViews(clusterId?: string): void {
  cache.invalidate(clusterId);
}

const LOAD_BALANCING: readonly MessageLoadBalancing[] = ['OFF', 'STRICT', 'ON_DEMAND', 'OFF_WITH_REDISTRIBUTION'];

/** One node's snapshot as the routing view; an address the settings read skipped (internal) has none. */
function viewOf(node: { nodeId: string; nodeName: string }, snapshot: RoutingSnapshot): RoutingNodeView {
  return {
    nodeId: node.nodeId,
    nodeName: node.nodeName,
    addresses: snapshot.addresses.map((address) => {
      const settings = snapshot.settingsInForce.get(address.name);
      return {
        name: address.name,
        routingTypes: address.routingTypes.filter((type) => type === 'ANYCAST' || type === 'MULTICAST'),
        deadLetterAddress: settings?.deadLetterAddress ?? null,
        expiryAddress: settings?.expiryAddress ?? null,
        sendToDlaOnNoRoute: settings?.sendToDlaOnNoRoute ?? false,
        redistributionDelay: settings?.redistributionDelay ?? null,
        autoCreateQueues: settings?.autoCreateQueues ?? null,
        internal: address.internal,
      };
    }),
    queues: snapshot.queues.map((queue) => ({
      name: queue.name,
      address: queue.address,
      routingType: queue.routingType,
      filter: queue.filter,
      durable: queue.durable,
      temporary: queue.temporary,
      internal: queue.internal,
      messageCount: queue.messageCount,
      consumerCount: queue.consumerCount,
    })),
    diverts: snapshot.diverts.map(({ routingName: _routingName, ...divert }) => divert),
    bridges: snapshot.bridges.map((bridge) => ({
      name: bridge.name,
      queueName: bridge.queueName,
      forwardingAddress: bridge.forwardingAddress,
      filter: bridge.filter,
      transformerClassName: bridge.transformerClassName,
      staticConnectors: bridge.staticConnectors,
      discoveryGroupName: bridge.discoveryGroupName,
      started: bridge.started,
    })),
    clusterConnections: snapshot.clusterConnections.map((connection) => ({
      ...connection,
      messageLoadBalancing: LOAD_BALANCING.find((kind) => kind === connection.messageLoadBalancing) ?? 'OFF',
    })),
  };
}

type NodeRead = { nodeId: string; nodeName: string } & (
  { view: RoutingNodeView; failure?: undefined } | { view?: undefined; failure: NodeFailure }
);

async function readNow(runtime: RoutingRuntime, clusterId: string): Promise<Omit<RoutingRead, 'readAt'> | undefined> {
  const found = await loadCommandTargets(runtime.prisma, clusterId);
  if (!found) return undefined;
  const limits = managementLimitsOf(runtime.settings);
  const reads = await Promise.all(
    found.targets.map(async (target): Promise<NodeRead> => {
      const node = { nodeId: target.nodeId, nodeName: target.nodeName };
      try {
        const client = managementClientFor(target.nodeId, target.endpoint, limits);
        return { ...node, view: viewOf(node, await readRoutingSnapshot(client)) };
      } catch (error) {
        return { ...node, failure: nodeFailureOf(error, target.endpoint.url) };
      }
    }),
  );
  const byName = (a: { nodeName: string }, b: { nodeName: string }) => a.nodeName.localeCompare(b.nodeName);
  return {
    views: reads.flatMap((read) => (read.view ? [read.view] : [])).sort(byName),
    failures: reads
      .flatMap((read) =>
        read.failure ? [{ nodeId: read.nodeId, nodeName: read.nodeName, failure: read.failure }] : [],
      )
      .sort(byName),
  };
}

/** Undefined when the cluster does not exist. Nodes that failed are named with their reason, not thrown. */
export async function readRoutingViews(runtime: RoutingRuntime, clusterId: string): Promise<RoutingRead | undefined> {
  const ttlMs = runtime.settings.duration(ROUTING_SETTINGS.cacheTtl);
  const { routing } = await cache.read(clusterId, ['routing'], ttlMs, async () => ({
    routing: await readNow(runtime, clusterId).then((read) => read && { ...read, readAt: new Date() }),
  }));
  // A missing cluster, or a read a node failed, is not kept: the next read asks again.
  if (!routing.value || routing.value.failures.length > 0) forgetRoutingViews(clusterId);
  return routing.value;
}
