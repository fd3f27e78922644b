// Evaluation of a cluster's alert rules: every enabled rule whose scope reaches the cluster (the cluster itself,
// its environment, or everything) is judged by its condition, and each subject's open alert is stepped through
// the lifecycle (lifecycle.ts). A transition that delivers queues one alert_delivery row per channel of the rule in
// the same transaction; sending is the deliverer's business, so a channel outage never slows evaluation.
import { randomUUID } from 'node:crypto';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { Database, PrismaClient } from '@/base/db/database.ts';
import type { ModuleRegistry, SettingsReader } from '@/modules/kernel/plugin/index.ts';
import { listClusterLocations } from '@/modules/platform/clusters/index.ts';
import { subjectPattern } from './subject-pattern.ts';
import { alertConditions, type AlertCondition, type ConditionResult } from './condition.ts';
import { ALERTING_SETTINGS, alertLinkOf } from './alerting.settings.ts';
import type { OpenAlertMemory } from './open-alert-memory.ts';
import { TransitionBatch, type SteppedAlert } from './transitions.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('alerting');

export interface EvaluationDeps {
  readonly db: Database;
  readonly prisma: PrismaClient;
  readonly registry: ModuleRegistry;
  /** Where transitions are announced after their commit (the worker's bus); none in a dry run. */
  readonly bus?: DatabaseBus;
  /** alerting.flap-window; 5 minutes without. */
  readonly settings?: SettingsReader;
  /** The owning worker's copy of open alerts between ticks; without it, every evaluation reads them. */
  readonly memory?: OpenAlertMemory;
}

const DEFAULT_FLAP_WINDOW_MS = 5 * 60_000;

type Rule = Awaited<ReturnType<PrismaClient['alertRule']['findMany']>>[number];

/** The contributed condition of a kind, loaded, or undefined when no enabled module contributes it. */
export async function conditionOf(registry: ModuleRegistry, kind: string): Promise<AlertCondition | undefined> {
  const declared = registry.contributionsTo(alertConditions).find((contributed) => contributed.value.kind === kind);
  return declared ? declared.value.load() : undefined;
}

/** The enabled rules reaching a cluster, oldest first, in one plain read (a thousand rows through the ORM cost more). */
async function rulesReaching(db: Database, clusterId: string, environmentId: string | null): Promise<Rule[]> {
  const rows = await db.query<Rule & { createdAt: number; updatedAt: number }>(
    `SELECT id, name, condition_kind AS "conditionKind", params, cluster_id AS "clusterId",
            environment_id AS "environmentId", pattern, severity, for_seconds AS "forSeconds", labels,
            channel_ids::text[] AS "channelIds", enabled, built_in AS "builtIn",
            (extract(epoch FROM created_at) * 1000)::float8 AS "createdAt",
            (extract(epoch FROM updated_at) * 1000)::float8 AS "updatedAt"
       FROM alert_rule
      WHERE enabled AND (cluster_id = $1 OR (cluster_id IS NULL AND (environment_id IS NULL OR environment_id = $2)))
      ORDER BY created_at, id`,
    [clusterId, environmentId],
  );
  return rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt), updatedAt: new Date(row.updatedAt) }));
}

/** What the rule's condition observes in the cluster now; throws when the condition cannot judge. */
/** A per-evaluation cache of the reads conditions share (ConditionContext.once). */
function onceCache() {
  const reads = new Map<string, Promise<unknown>>();
  return <T>(key: string, load: () => Promise<T>): Promise<T> => {
    let read = reads.get(key) as Promise<T> | undefined;
    if (!read) {
      read = load();
      reads.set(key, read);
    }
    return read;
  };
}

export async function observe(
  deps: EvaluationDeps,
  rule: Pick<Rule, 'conditionKind' | 'params' | 'pattern'>,
  clusterId: string,
  now: Date,
  once = onceCache(),
): Promise<ConditionResult[] | undefined> {
  const condition = await conditionOf(deps.registry, rule.conditionKind);
  if (!condition) return undefined;
  const pattern = subjectPattern(rule.pattern);
  return condition.evaluate({
    db: deps.db,
    prisma: deps.prisma,
    clusterId,
    params: condition.params.parse(rule.params ?? {}),
    matches: pattern.matches,
    select: pattern.select,
    now,
    registry: deps.registry,
    once,
  });
}

/**
 * The cluster's alerts in one plain read of what stepping them needs: a large cluster has thousands open on every
 * tier tick, and the ORM's per-row work cost ten times the statement. Times come as epoch milliseconds (parsing
 * timestamp text dominated).
 */
async function alertsOf(db: Database, clusterId: string, condition: string, after?: Date): Promise<SteppedAlert[]> {
  const rows = await db.query<{
    id: string;
    ruleId: string;
    subject: string;
    state: string;
    since: number;
    silencedUntil: number | null;
    resolvedAt: number | null;
    lastValue: number | null;
  }>(
    `SELECT id, rule_id AS "ruleId", subject, state, (extract(epoch FROM since) * 1000)::float8 AS since,
            (extract(epoch FROM silenced_until) * 1000)::float8 AS "silencedUntil",
            (extract(epoch FROM resolved_at) * 1000)::float8 AS "resolvedAt", last_value AS "lastValue"
       FROM alert WHERE cluster_id = $1 AND ${condition}`,
    after ? [clusterId, after] : [clusterId],
  );
  const at = (epoch: number | null) => (epoch === null ? null : new Date(epoch));
  return rows.map((row) => ({
    ...row,
    clusterId,
    since: new Date(row.since),
    silencedUntil: at(row.silencedUntil),
    resolvedAt: at(row.resolvedAt),
  }));
}

export interface EvaluationSummary {
  readonly rules: number;
  readonly transitions: number;
  readonly queuedDeliveries: number;
}

/**
 * Judges every rule reaching the cluster and steps each subject through the lifecycle (transitions.ts writes what
 * changed in one transaction of a few statements, whatever the number of alerts); a rule whose condition fails is
 * skipped (its alerts stay as they are).
 */
export async function evaluateCluster(
  deps: EvaluationDeps,
  clusterId: string,
  now = new Date(),
): Promise<EvaluationSummary> {
  const [location] = await listClusterLocations(deps.prisma, clusterId);
  if (!location) return { rules: 0, transitions: 0, queuedDeliveries: 0 };
  const rules = await rulesReaching(deps.db, clusterId, location.environmentId);
  const once = onceCache();
  const flapWindowMs = deps.settings?.duration(ALERTING_SETTINGS.flapWindow) ?? DEFAULT_FLAP_WINDOW_MS;
  // Every open alert of the cluster in one read, by rule; and those resolved within the flap window.
  const openByRule = new Map<string, SteppedAlert[]>();
  const readOpen = () => alertsOf(deps.db, clusterId, `state <> 'resolved'`);
  const open = deps.memory ? await deps.memory.openAlerts(deps.db, clusterId, readOpen) : await readOpen();
  for (const alert of open) {
    const ofRule = openByRule.get(alert.ruleId);
    if (ofRule) ofRule.push(alert);
    else openByRule.set(alert.ruleId, [alert]);
  }
  const resolvedByRule = new Map<string, Map<string, SteppedAlert>>();
  if (flapWindowMs > 0) {
    const recent = await alertsOf(
      deps.db,
      clusterId,
      `state = 'resolved' AND resolved_at > $2 ORDER BY resolved_at`,
      new Date(now.getTime() - flapWindowMs),
    );
    for (const alert of recent) {
      const bySubject = resolvedByRule.get(alert.ruleId) ?? new Map<string, SteppedAlert>();
      bySubject.set(alert.subject, alert);
      resolvedByRule.set(alert.ruleId, bySubject);
    }
  }
  const batch = new TransitionBatch({ id: clusterId, name: location.name }, now, flapWindowMs, (alertId) =>
    alertLinkOf(deps.settings, alertId),
  );
  for (const rule of rules) {
    let results: ConditionResult[] | undefined;
    const openOfRule = openByRule.get(rule.id) ?? [];
    try {
      results = await observe(deps, rule, clusterId, now, once);
    } catch (error) {
      log.error({ err: error, rule: rule.name, kind: rule.conditionKind, clusterId }, 'cannot evaluate the rule');
      continue;
    }
    if (!results) continue;
    const openBySubject = new Map(openOfRule.map((alert) => [alert.subject, alert]));
    const resolved = resolvedByRule.get(rule.id);
    for (const observation of results) {
      const alert = openBySubject.get(observation.subject);
      // Most subjects of a large cluster hold nothing and fire nothing: no step to take.
      if (!alert && !observation.firing) continue;
      openBySubject.delete(observation.subject);
      batch.step(rule, observation.subject, alert, observation, resolved?.get(observation.subject));
    }
    // Open alerts on subjects no longer observed (the queue is gone): the lifecycle resolves them.
    for (const [subject, alert] of openBySubject) batch.step(rule, subject, alert, undefined, resolved?.get(subject));
  }
  const { transitions, queuedDeliveries, values } = await batch.commit(deps.prisma, deps.bus);
  deps.memory?.committed(clusterId, values);
  return { rules: rules.length, transitions, queuedDeliveries };
}

/** The rules every registered cluster gets (editable, never installed twice). */
const BUILT_IN_RULES = [
  { builtIn: 'node-down', name: 'Node down', conditionKind: 'node-down', severity: 'critical', forSeconds: 30 },
  { builtIn: 'split-brain', name: 'Split-brain', conditionKind: 'split-brain', severity: 'critical', forSeconds: 0 },
  {
    builtIn: 'capability-lost',
    name: 'Capability lost',
    conditionKind: 'capability-lost',
    severity: 'warning',
    forSeconds: 0,
  },
  {
    builtIn: 'dlq-growing',
    name: 'DLQ growing',
    conditionKind: 'dlq-growing',
    severity: 'warning',
    forSeconds: 0,
    params: { windowSeconds: 300, minIncrease: 1 },
  },
  {
    builtIn: 'consumer-stalled',
    name: 'Consumer stalled',
    conditionKind: 'consumer-health',
    severity: 'warning',
    forSeconds: 60,
    params: { verdicts: ['STALLED'] },
  },
] as const;

export async function installBuiltInRules(db: Database, clusterId: string, clusterName: string): Promise<void> {
  for (const rule of BUILT_IN_RULES) {
    await db.query(
      `INSERT INTO alert_rule (id, name, condition_kind, params, cluster_id, severity, for_seconds, built_in)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (built_in, cluster_id) WHERE built_in IS NOT NULL DO NOTHING`,
      [
        randomUUID(),
        `${rule.name} (${clusterName})`,
        rule.conditionKind,
        JSON.stringify('params' in rule ? rule.params : {}),
        clusterId,
        rule.severity,
        rule.forSeconds,
        rule.builtIn,
      ],
    );
  }
}
