// The fleet's state as the scrape last stored it: nodes up and serving, and the exposed queues' depth, rates and
// consumers (their totals over logical nodes, the numbers the queue grid shows). Read, never polled: a scrape of
// /metrics costs the database three statements and no broker call.
import type { ExposedQueueTotals } from '@/modules/platform/scrape/read/index.ts';
import { type MetricFamily, QUEUE_LABELS, queueLabelsOf } from './metric-source.ts';
import { gauge, samplesOf } from './families.ts';

export interface PolledNode {
  readonly id: string;
  readonly clusterId: string;
  readonly managementUrl: string;
  readonly brokerName: string | null;
  readonly serving: boolean;
  readonly lastSuccessAt: Date | null;
  readonly lastFailureAt: Date | null;
}

/** The `node` label: the broker's name once known, else its management URL. */
export const nodeLabelOf = (node: PolledNode) => node.brokerName ?? node.managementUrl;

/** Up: the last management poll succeeded (the node-down alert's rule, inverted). */
const isUp = (node: PolledNode) =>
  node.lastSuccessAt !== null && (node.lastFailureAt === null || node.lastFailureAt <= node.lastSuccessAt);

export function nodeFamilies(nodes: readonly PolledNode[], clusterNames: ReadonlyMap<string, string>): MetricFamily[] {
  const labels = (node: PolledNode) => ({
    cluster: clusterNames.get(node.clusterId) ?? node.clusterId,
    node: nodeLabelOf(node),
  });
  const clusters = [...clusterNames].map(([id, name]) => ({ id, name }));
  return [
    gauge('flotilla_clusters', 'Registered clusters.', [], [{ labels: {}, value: clusterNames.size }]),
    gauge(
      'flotilla_cluster_nodes',
      'Nodes registered per cluster.',
      ['cluster'],
      clusters.map((cluster) => ({
        labels: { cluster: cluster.name },
        value: nodes.filter((node) => node.clusterId === cluster.id).length,
      })),
    ),
    gauge(
      'flotilla_node_up',
      '1 when the node’s last management poll succeeded, else 0.',
      ['cluster', 'node'],
      samplesOf(nodes, labels, (node) => (isUp(node) ? 1 : 0)),
    ),
    gauge(
      'flotilla_node_serving',
      '1 when the node serves its logical node (a live primary or a backup that took over).',
      ['cluster', 'node'],
      samplesOf(nodes, labels, (node) => (node.serving ? 1 : 0)),
    ),
  ];
}

export function queueFamilies(
  queues: readonly ExposedQueueTotals[],
  clusterNames: ReadonlyMap<string, string>,
): MetricFamily[] {
  const labels = (queue: ExposedQueueTotals) => queueLabelsOf(queue, clusterNames);
  const family = (name: string, help: string, value: (queue: ExposedQueueTotals) => number | null) =>
    gauge(name, help, QUEUE_LABELS, samplesOf(queues, labels, value));
  return [
    family(
      'flotilla_queue_depth',
      'Messages in the queue over its cluster’s logical nodes (the queue grid’s total).',
      (queue) => queue.messageCount,
    ),
    family(
      'flotilla_queue_consumers',
      'Consumers of the queue over its cluster’s logical nodes.',
      (queue) => queue.consumerCount,
    ),
    family(
      'flotilla_queue_delivering',
      'Messages delivered and not yet acknowledged.',
      (queue) => queue.deliveringCount,
    ),
    family('flotilla_queue_in_rate', 'Messages added per second, smoothed across listings.', (queue) => queue.inRate),
    family(
      'flotilla_queue_out_rate',
      'Messages acknowledged per second, smoothed across listings.',
      (queue) => queue.outRate,
    ),
    family(
      'flotilla_queue_dead_letter',
      '1 when the brokers’ address settings name the queue’s address as dead-letter or expiry.',
      (queue) => (queue.deadLetter ? 1 : 0),
    ),
  ];
}
