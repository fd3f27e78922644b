// Consumer health on GET /metrics (telemetry.metric-sources): each exposed queue's stored verdict as one series
// (value 1, the verdict a label) and every cluster's count per verdict. Only the queues telemetry exposes are
// labelled, so the cardinality stays the one telemetry.queue-cap sets.
import { VERDICTS } from '@/base/consumer-verdicts.ts';
import {
  QUEUE_LABELS,
  queueLabelsOf,
  type TelemetryContext,
  type TelemetrySource,
} from '@/modules/platform/telemetry/module.ts';
import { storedVerdictsOf, verdictCountsOf } from './verdict-store.ts';

async function collect(context: TelemetryContext) {
  const clusterIds = [...context.clusterNames.keys()];
  const counts = await verdictCountsOf(context.db, clusterIds);
  const queueSamples = [];
  for (const clusterId of clusterIds) {
    const queues = context.queues.filter((queue) => queue.clusterId === clusterId);
    if (queues.length === 0) continue;
    const verdicts = await storedVerdictsOf(context.db, clusterId, { names: queues.map((queue) => queue.queueName) });
    for (const queue of queues) {
      const verdict = verdicts.get(queue.queueName);
      if (verdict) queueSamples.push({ labels: { ...queueLabelsOf(queue, context.clusterNames), verdict }, value: 1 });
    }
  }
  return [
    {
      name: 'flotilla_queue_verdict',
      help: 'The queue’s consumer-health verdict (the label; value 1), as last judged after a scrape.',
      type: 'gauge' as const,
      labelNames: [...QUEUE_LABELS, 'verdict'],
      samples: queueSamples,
    },
    {
      name: 'flotilla_cluster_queue_verdicts',
      help: 'Queues of the cluster with each consumer-health verdict.',
      type: 'gauge' as const,
      labelNames: ['cluster', 'verdict'],
      samples: clusterIds.flatMap((clusterId) =>
        VERDICTS.map((verdict) => ({
          labels: { cluster: context.clusterNames.get(clusterId) ?? clusterId, verdict },
          value: counts.get(clusterId)?.counts[verdict] ?? 0,
        })),
      ),
    },
  ];
}

export const verdictTelemetry: TelemetrySource = { collect };
