// The telemetry.metric-sources point: how a module that telemetry may not import (a feature: alerting, metrics,
// events) adds its own families to GET /metrics. A source reads its own tables and answers plain numbers; telemetry
// owns the names' exposition, the cache and which queues may be labelled, so a source can never widen cardinality.
import type { Database } from '@/base/db/database.ts';
import { createExtensionPoint } from '@/modules/kernel/plugin/index.ts';

/** One exposed queue, as the queue grid names it. */
export interface ExposedQueue {
  readonly clusterId: string;
  readonly address: string;
  readonly queueName: string;
  readonly routingType: string;
}

export interface TelemetryContext {
  readonly db: Database;
  readonly now: Date;
  /** Cluster id → its name, which the `cluster` label carries. */
  readonly clusterNames: ReadonlyMap<string, string>;
  /** The queues that get per-queue series (after telemetry.queue-patterns and telemetry.queue-cap): no other queue
   * may be labelled. */
  readonly queues: readonly ExposedQueue[];
}

export interface MetricSample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** One family: `name` starts with `flotilla_`; a counter's name ends in `_total`. */
export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly type: 'gauge' | 'counter';
  readonly labelNames: readonly string[];
  readonly samples: readonly MetricSample[];
}

export interface TelemetrySource {
  collect(context: TelemetryContext): Promise<readonly MetricFamily[]>;
}

/** A contribution: the source's id (the `source` label of flotilla_metrics_source_up) and its lazy load. */
export interface TelemetrySourceDeclaration {
  readonly id: string;
  readonly load: () => Promise<TelemetrySource>;
}

export const telemetrySources = createExtensionPoint<TelemetrySourceDeclaration>({
  id: 'telemetry.metric-sources',
  owner: 'telemetry',
  cardinality: 'many',
});

/** The labels every per-queue series carries, so the contributed ones join the queue's own. */
export function queueLabelsOf(
  queue: ExposedQueue,
  clusterNames: ReadonlyMap<string, string>,
): { cluster: string; address: string; queue: string; routing_type: string } {
  return {
    cluster: clusterNames.get(queue.clusterId) ?? queue.clusterId,
    address: queue.address,
    queue: queue.queueName,
    routing_type: queue.routingType,
  };
}

export const QUEUE_LABELS = ['cluster', 'address', 'queue', 'routing_type'] as const;
