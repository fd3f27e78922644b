// Evaluation of a cluster's alert rules: every enabled rule whose scope reaches the cluster (the cluster itself,
// its environment, or everything) is judged by its condition, and each subject's open alert is stepped through
// the lifecycle (lifecycle.ts). A transition that delivers queues one alert_delivery row per channel of the rule in
// the same transaction; sending is the deliverer's business, so a channel outage never slows evaluation.
import { randomUUID } from 'node:crypto';
import type { Database, PrismaClient, Transaction } from '@/base/db/database.ts';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import { visibleClusters } from '@/modules/platform/clusters/index.ts';
import { alertConditions, type AlertCondition, type ConditionResult } from './condition.ts';
import { jsonOf, type AlertPayload } from './channels.ts';
import { stepOf } from './lifecycle.ts';

export interface EvaluationDeps {
  readonly db: Database;
  readonly prisma: PrismaClient;
  readonly registry: ModuleRegistry;
}

type Rule = Awaited<ReturnType<PrismaClient['alertRule']['findMany']>>[number];

/** A glob over queue and address names: `*` any characters, `?` one; no pattern matches everything. */
function patternMatcher(pattern: string | null): (subject: string) => boolean {
  if (!pattern) return () => true;
  // The usual shapes without a regular expression: a name, or a prefix and one trailing `*`.
  if (!/[*?]/.test(pattern)) return (subject) => subject === pattern;
  const prefix = pattern.slice(0, -1);
  if (pattern.endsWith('*') && !/[*?]/.test(prefix)) return (subject) => subject.startsWith(prefix);
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  const expression = new RegExp(`^${source}$`);
  return (subject) => expression.test(subject);
}

/** The contributed condition of a kind, loaded, or undefined when no enabled module contributes it. */
export async function conditionOf(registry: ModuleRegistry, kind: string): Promise<AlertCondition | undefined> {
  const declared = registry.contributionsTo(alertConditions).find((contributed) => contributed.value.kind === kind);
  return declared ? declared.value.load() : undefined;
}

const EVERY_CLUSTER = [{ scope: { kind: 'GLOBAL' as const }, permissions: ['cluster:read'] }];

/** The cluster ids and environments of every cluster (the scope of rules that name an environment or nothing). */
export async function clusterLocations(prisma: PrismaClient) {
  const clusters = await visibleClusters(prisma, EVERY_CLUSTER);
  return clusters.map((cluster) => ({
    id: cluster.id,
    name: cluster.name,
    environmentId: cluster.environment?.id ?? null,
  }));
}

function rulesReaching(prisma: PrismaClient, clusterId: string, environmentId: string | null) {
  return prisma.alertRule.findMany({
    where: {
      enabled: true,
      OR: [
        { clusterId },
        { clusterId: null, environmentId: null },
        ...(environmentId ? [{ clusterId: null, environmentId }] : []),
      ],
    },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
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
  open: ReadonlySet<string> = new Set(),
): Promise<ConditionResult[] | undefined> {
  const condition = await conditionOf(deps.registry, rule.conditionKind);
  if (!condition) return undefined;
  return condition.evaluate({
    db: deps.db,
    prisma: deps.prisma,
    clusterId,
    params: condition.params.parse(rule.params ?? {}),
    matches: patternMatcher(rule.pattern),
    now,
    registry: deps.registry,
    open,
    once,
  });
}

function payloadOf(
  rule: Rule,
  alert: { id: string; clusterId: string; subject: string; state: string; since: Date; lastValue: number | null },
  event: 'firing' | 'resolved',
): AlertPayload {
  return {
    event,
    alert: {
      id: alert.id,
      rule: rule.name,
      severity: rule.severity,
      clusterId: alert.clusterId,
      subject: alert.subject,
      state: alert.state,
      value: alert.lastValue,
      since: alert.since.toISOString(),
      labels: (rule.labels ?? {}) as Record<string, string>,
    },
  };
}

function deliveriesOf(rule: Rule, payload: AlertPayload, now: Date) {
  return rule.channelIds.map((channelId) => ({
    id: randomUUID(),
    alertId: payload.alert.id,
    channelId,
    event: payload.event,
    payload: jsonOf(payload),
    status: 'pending',
    at: now,
    nextAttemptAt: now,
  }));
}

export interface EvaluationSummary {
  readonly rules: number;
  readonly transitions: number;
  readonly queuedDeliveries: number;
}

interface ValueChange {
  readonly id: string;
  readonly value: number | null;
}

/** Sets state (and its time) and last value of the alerts listed, in one statement. */
async function setAlerts(
  tx: Transaction,
  changes: readonly ValueChange[],
  now: Date,
  state?: 'firing' | 'resolved',
): Promise<void> {
  if (changes.length === 0) return;
  const transition =
    state === 'firing'
      ? `state = 'firing', fired_at = $2,`
      : state === 'resolved'
        ? `state = 'resolved', resolved_at = $2,`
        : '';
  await tx.$executeRawUnsafe(
    `UPDATE alert SET ${transition} last_value = v.value, updated_at = $2
       FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, value float8)
      WHERE alert.id = v.id`,
    JSON.stringify(changes),
    now,
  );
}

/**
 * Judges every rule reaching the cluster and writes what changed in one transaction of a few statements, whatever
 * the number of alerts; a rule whose condition fails is skipped (its alerts stay as they are).
 */
export async function evaluateCluster(
  deps: EvaluationDeps,
  clusterId: string,
  now = new Date(),
): Promise<EvaluationSummary> {
  const location = (await clusterLocations(deps.prisma)).find((cluster) => cluster.id === clusterId);
  if (!location) return { rules: 0, transitions: 0, queuedDeliveries: 0 };
  const rules = await rulesReaching(deps.prisma, clusterId, location.environmentId);
  const once = onceCache();
  // Every open alert of the cluster in one read, by rule.
  const openByRule = new Map<string, Awaited<ReturnType<PrismaClient['alert']['findMany']>>>();
  for (const alert of await deps.prisma.alert.findMany({ where: { clusterId, state: { not: 'resolved' } } })) {
    openByRule.set(alert.ruleId, [...(openByRule.get(alert.ruleId) ?? []), alert]);
  }
  const created: {
    id: string;
    ruleId: string;
    clusterId: string;
    subject: string;
    state: string;
    since: Date;
    firedAt: Date | null;
    lastValue: number | null;
    updatedAt: Date;
  }[] = [];
  const fired: ValueChange[] = [];
  const resolved: ValueChange[] = [];
  const valued: ValueChange[] = [];
  const dropped: string[] = [];
  const deliveries: ReturnType<typeof deliveriesOf> = [];
  for (const rule of rules) {
    let results: ConditionResult[] | undefined;
    const openOfRule = openByRule.get(rule.id) ?? [];
    try {
      results = await observe(deps, rule, clusterId, now, once, new Set(openOfRule.map((alert) => alert.subject)));
    } catch (error) {
      console.error(`[alerting] rule ${rule.name} (${rule.conditionKind}) on ${clusterId}:`, error);
      continue;
    }
    if (!results) continue;
    const observed = new Map(results.map((result) => [result.subject, result]));
    const openBySubject = new Map(openOfRule.map((alert) => [alert.subject, alert]));
    const subjects = new Set([...observed.keys(), ...openBySubject.keys()]);
    for (const subject of subjects) {
      const alert = openBySubject.get(subject);
      const observation = observed.get(subject);
      const step = stepOf(
        alert && { state: alert.state as 'pending' | 'firing', since: alert.since, silencedUntil: alert.silencedUntil },
        observation,
        rule.forSeconds * 1_000,
        now,
      );
      const value = observation?.value ?? alert?.lastValue ?? null;
      if (step.kind === 'none') continue;
      if (step.kind === 'open') {
        const row = { id: randomUUID(), ruleId: rule.id, clusterId, subject, state: step.state, since: now };
        created.push({ ...row, firedAt: step.state === 'firing' ? now : null, lastValue: value, updatedAt: now });
        if (step.deliver)
          deliveries.push(...deliveriesOf(rule, payloadOf(rule, { ...row, lastValue: value }, 'firing'), now));
        continue;
      }
      if (!alert) continue;
      if (step.kind === 'update') {
        if (alert.lastValue !== value) valued.push({ id: alert.id, value });
      } else if (step.kind === 'drop') {
        dropped.push(alert.id);
      } else {
        const state = step.kind === 'fire' ? 'firing' : 'resolved';
        (step.kind === 'fire' ? fired : resolved).push({ id: alert.id, value });
        if (step.deliver) {
          deliveries.push(...deliveriesOf(rule, payloadOf(rule, { ...alert, state, lastValue: value }, state), now));
        }
      }
    }
  }
  const transitions = created.length + fired.length + resolved.length + dropped.length;
  if (transitions + valued.length > 0) {
    await deps.prisma.$transaction(
      async (tx) => {
        if (created.length > 0) await tx.alert.createMany({ data: created });
        if (dropped.length > 0) await tx.alert.deleteMany({ where: { id: { in: dropped } } });
        await setAlerts(tx, fired, now, 'firing');
        await setAlerts(tx, resolved, now, 'resolved');
        await setAlerts(tx, valued, now);
        if (deliveries.length > 0) await tx.alertDelivery.createMany({ data: deliveries });
        // Thousands of alerts opening at once (a new rule over a large cluster) take longer than Prisma's 5 s default.
      },
      { timeout: 120_000 },
    );
  }
  return { rules: rules.length, transitions, queuedDeliveries: deliveries.length };
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
