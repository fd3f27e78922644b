// What the other nodes of the cluster may do with the message, which this node's configuration cannot decide: a
// cluster connection balancing STRICT or ON_DEMAND routes to a queue of the same routing name on another node
// (BindingsImpl.getNextBinding, remote bindings in the same group), and redistribution later moves messages from a
// queue without consumers to a node whose queue has some.
import { coveredByClusterConnection, matchesAddress } from '../address-pattern.ts';
import { itemId } from '../routing-graph.ts';
import type { RoutingNodeView, RoutingQueue } from '../routing-view.ts';
import type { WhereNodeAnswer, WhereNote } from './where-types.ts';

const ADDRESS_PREFIX = 'address:';

/** Queues on `other` in the same routing-name group as a queue bound to `address` here would be. */
function remoteQueues(other: RoutingNodeView, address: string): RoutingQueue[] {
  return other.queues.filter((queue) => !queue.internal && matchesAddress(queue.address, address));
}

export function clusterUnknowns(
  view: RoutingNodeView,
  views: readonly RoutingNodeView[],
  answer: WhereNodeAnswer,
): WhereNote[] {
  const others = views.filter((other) => other.nodeId !== view.nodeId);
  if (others.length === 0) return [];
  const travelled = answer.items
    .filter((id) => id.startsWith(ADDRESS_PREFIX))
    .map((id) => id.slice(ADDRESS_PREFIX.length));
  const notes: WhereNote[] = [];
  for (const connection of view.clusterConnections) {
    if (!connection.started) continue;
    const balancing = connection.messageLoadBalancing;
    for (const address of travelled) {
      if (!coveredByClusterConnection(connection.address, address)) continue;
      for (const other of others) {
        const queues = remoteQueues(other, address);
        if (queues.length === 0) continue;
        const names = queues.map((queue) => queue.name).join(', ');
        if (balancing === 'STRICT' || balancing === 'ON_DEMAND')
          notes.push({
            kind: 'cluster',
            text: `Cluster connection ${connection.name} balances ${address} ${balancing}: the broker may route it to ${names} on ${other.nodeName} instead of the same queue here${balancing === 'ON_DEMAND' ? ' (only to queues with consumers there)' : ''}; which node gets each message is decided at send time.`,
            itemId: itemId('cluster-connection', connection.name),
          });
        const idle = answer.receivingQueues.filter(
          (queue) =>
            queues.some((remote) => remote.name === queue.name && (remote.consumerCount ?? 0) > 0) &&
            view.queues.find((local) => local.name === queue.name)?.consumerCount === 0,
        );
        const delay = view.addresses.find((entry) => entry.name === address)?.redistributionDelay ?? null;
        if (idle.length > 0 && delay !== null && delay >= 0 && balancing !== 'OFF')
          notes.push({
            kind: 'redistribution',
            text: `${idle.map((queue) => queue.name).join(', ')} ${idle.length > 1 ? 'have' : 'has'} no consumer here but consumers on ${other.nodeName}: redistribution may move the message there after ${String(delay)} ms.`,
            itemId: itemId('cluster-connection', connection.name),
          });
      }
    }
  }
  return notes;
}
