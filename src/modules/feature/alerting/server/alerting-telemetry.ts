// Alerting on GET /metrics (telemetry.metric-sources): open alerts per cluster, severity and state (zeros
// included, so a rule on "> 0" sees a series), the delivery log by status, the transitions ever written (the
// sequence of alert_transition: a counter that retention does not lower), the rules, and each cluster's evaluations
// (alert_evaluation, counted by the worker: evaluation-counts.ts).
import type { TelemetryContext, TelemetrySource } from '@/modules/platform/telemetry/module.ts';

const SEVERITIES = ['info', 'warning', 'critical'] as const;
const OPEN_STATES = ['pending', 'firing'] as const;
const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

async function collect(context: TelemetryContext) {
  const { db, clusterNames } = context;
  const [open, deliveries, transitions, rules, evaluations] = await Promise.all([
    db.query<{ cluster_id: string; severity: string; state: string; n: number }>(
      `SELECT a.cluster_id, r.severity, a.state, count(*)::int AS n
         FROM alert a JOIN alert_rule r ON r.id = a.rule_id
        WHERE a.state IN ('pending', 'firing') GROUP BY 1, 2, 3`,
    ),
    db.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM alert_delivery GROUP BY 1'),
    db.query<{ seq: string | null }>('SELECT max(seq)::text AS seq FROM alert_transition'),
    db.query<{ enabled: boolean; n: number }>('SELECT enabled, count(*)::int AS n FROM alert_rule GROUP BY 1'),
    db.query<{ cluster_id: string; evaluations: string; failures: string; last_ms: number | null }>(
      'SELECT cluster_id, evaluations::text, failures::text, last_ms FROM alert_evaluation',
    ),
  ]);
  const evaluated = (clusterId: string) => evaluations.find((row) => row.cluster_id === clusterId);
  const openCount = (clusterId: string, severity: string, state: string) =>
    open.find((row) => row.cluster_id === clusterId && row.severity === severity && row.state === state)?.n ?? 0;
  return [
    {
      name: 'flotilla_alerts_open',
      help: 'Open alerts (pending or firing) per cluster and severity.',
      type: 'gauge' as const,
      labelNames: ['cluster', 'severity', 'state'],
      samples: [...clusterNames].flatMap(([clusterId, cluster]) =>
        SEVERITIES.flatMap((severity) =>
          OPEN_STATES.map((state) => ({
            labels: { cluster, severity, state },
            value: openCount(clusterId, severity, state),
          })),
        ),
      ),
    },
    {
      name: 'flotilla_alert_deliveries',
      help: 'Alert deliveries kept (alerting.retention) by status: pending (retrying), delivered, failed.',
      type: 'gauge' as const,
      labelNames: ['status'],
      samples: DELIVERY_STATUSES.map((status) => ({
        labels: { status },
        value: deliveries.find((row) => row.status === status)?.n ?? 0,
      })),
    },
    {
      name: 'flotilla_alert_transitions_total',
      help: 'Alert transitions written since installation (pending, firing, resolved, …): the outcome of evaluations.',
      type: 'counter' as const,
      labelNames: [],
      samples: [{ labels: {}, value: Number(transitions[0]?.seq ?? 0) }],
    },
    {
      name: 'flotilla_alert_evaluations_total',
      help: 'Evaluations of a cluster’s alert rules (one after every scrape tier), and those that failed.',
      type: 'counter' as const,
      labelNames: ['cluster', 'outcome'],
      samples: [...clusterNames].flatMap(([clusterId, cluster]) => {
        const row = evaluated(clusterId);
        const failures = Number(row?.failures ?? 0);
        return [
          { labels: { cluster, outcome: 'ok' }, value: Number(row?.evaluations ?? 0) - failures },
          { labels: { cluster, outcome: 'failed' }, value: failures },
        ];
      }),
    },
    {
      name: 'flotilla_alert_evaluation_last_duration_seconds',
      help: 'How long the last evaluation of a cluster’s alert rules took.',
      type: 'gauge' as const,
      labelNames: ['cluster'],
      samples: [...clusterNames].flatMap(([clusterId, cluster]) => {
        const lastMs = evaluated(clusterId)?.last_ms;
        return lastMs === null || lastMs === undefined ? [] : [{ labels: { cluster }, value: lastMs / 1000 }];
      }),
    },
    {
      name: 'flotilla_alert_rules',
      help: 'Alert rules, enabled or not: what every scrape tier evaluates.',
      type: 'gauge' as const,
      labelNames: ['enabled'],
      samples: [true, false].map((enabled) => ({
        labels: { enabled: String(enabled) },
        value: rules.find((row) => row.enabled === enabled)?.n ?? 0,
      })),
    },
  ];
}

export const alertingTelemetry: TelemetrySource = { collect };
