// Event ingest on GET /metrics (telemetry.metric-sources): broker notifications stored since installation (the
// sequence of broker_event, a counter that retention does not lower: rate() gives the ingest rate), those received
// in the last minute per cluster, and those dropped per cluster (the store's back-pressure).
import type { TelemetryContext, TelemetrySource } from '@/modules/platform/telemetry/module.ts';

async function collect(context: TelemetryContext) {
  const { db, clusterNames } = context;
  const [stored, recent, dropped] = await Promise.all([
    db.query<{ seq: string | null }>('SELECT max(seq)::text AS seq FROM broker_event'),
    db.query<{ cluster_id: string; n: number }>(
      `SELECT cluster_id, count(*)::int AS n FROM broker_event
        WHERE received_at > $1::timestamptz - interval '1 minute' GROUP BY 1`,
      [context.now],
    ),
    db.query<{ cluster_id: string; dropped: string }>('SELECT cluster_id, dropped::text FROM broker_event_dropped'),
  ]);
  const clusters = [...clusterNames];
  return [
    {
      name: 'flotilla_events_ingested_total',
      help: 'Broker notifications stored since installation (all clusters).',
      type: 'counter' as const,
      labelNames: [],
      samples: [{ labels: {}, value: Number(stored[0]?.seq ?? 0) }],
    },
    {
      name: 'flotilla_events_last_minute',
      help: 'Broker notifications received from the cluster in the last minute.',
      type: 'gauge' as const,
      labelNames: ['cluster'],
      samples: clusters.map(([clusterId, cluster]) => ({
        labels: { cluster },
        value: recent.find((row) => row.cluster_id === clusterId)?.n ?? 0,
      })),
    },
    {
      name: 'flotilla_events_dropped_total',
      help: 'Broker notifications of the cluster dropped before they were stored (the store fell behind).',
      type: 'counter' as const,
      labelNames: ['cluster'],
      samples: clusters.map(([clusterId, cluster]) => ({
        labels: { cluster },
        value: Number(dropped.find((row) => row.cluster_id === clusterId)?.dropped ?? 0),
      })),
    },
  ];
}

export const eventsTelemetry: TelemetrySource = { collect };
