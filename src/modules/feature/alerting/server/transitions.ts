// Applying the lifecycle to one evaluation of a cluster: each subject's step (lifecycle.ts) is collected, then
// written in one transaction of a few set-based statements whatever the number of alerts — the alert rows, the
// deliveries to queue, and one alert_transition row per transition (the `alerts` stream topic's events). When
// anything transitions, the audit row (actor `system`) is committed before the transaction, and the transitions are
// announced on the bus after it. A user's acknowledge, silence and unsilence record their transition here too.
import { randomUUID } from 'node:crypto';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { PrismaClient, Transaction } from '@/base/db/database.ts';
import { openAudit } from '@/modules/kernel/audit/index.ts';
import { systemContext } from '@/modules/kernel/core/index.ts';
import { announceTransitions, type TransitionRange } from './alert-stream.ts';
import { jsonOf, type AlertPayload } from './channels.ts';
import { silenceEnded, stepOf, type Observation } from './lifecycle.ts';

type Rule = Awaited<ReturnType<PrismaClient['alertRule']['findMany']>>[number];
export type AlertRow = Awaited<ReturnType<PrismaClient['alert']['findMany']>>[number];
/** What stepping an alert reads of it: the evaluator reads only this of the thousands open on every tick. */
export type SteppedAlert = Pick<
  AlertRow,
  'id' | 'ruleId' | 'clusterId' | 'subject' | 'state' | 'since' | 'silencedUntil' | 'resolvedAt' | 'lastValue'
>;

/** The answer a held delivery carries until the deliverer takes it: the alert is flapping. */
const HELD = 'held: the alert reopened within the flap window';

type TransitionKind =
  'pending' | 'firing' | 'reopened' | 'resolved' | 'dropped' | 'acknowledged' | 'silenced' | 'unsilenced';

interface TransitionEntry {
  readonly alertId: string;
  readonly ruleId: string;
  readonly rule: string;
  readonly severity: string;
  readonly subject: string;
  readonly transition: TransitionKind;
  readonly state: string;
  readonly value: number | null;
}

/** Writes transitions of one cluster in order; answers their seq range (for the announcement after the commit). */
async function insertTransitions(
  tx: Transaction,
  clusterId: string,
  actor: string,
  at: Date,
  entries: readonly TransitionEntry[],
): Promise<TransitionRange | undefined> {
  if (entries.length === 0) return undefined;
  const rows = await tx.$queryRawUnsafe<{ from: string; to: string }[]>(
    `WITH inserted AS (
       INSERT INTO alert_transition (alert_id, cluster_id, rule_id, rule, severity, subject, transition, state, actor,
                                     value, at)
       SELECT v."alertId", $2::uuid, v."ruleId", v.rule, v.severity, v.subject, v.transition, v.state, $3, v.value, $4
         FROM jsonb_to_recordset($1::jsonb) AS v("alertId" uuid, "ruleId" uuid, rule text,
              severity text, subject text, transition text, state text, value float8, ord bigint)
        ORDER BY v.ord
       RETURNING seq)
     SELECT min(seq)::text AS "from", max(seq)::text AS "to" FROM inserted`,
    JSON.stringify(entries.map((entry, ord) => ({ ...entry, ord }))),
    clusterId,
    actor,
    at,
  );
  const range = rows[0];
  return range ? { clusterId, fromSeq: Number(range.from), toSeq: Number(range.to) } : undefined;
}

/** A user's transition of one alert (acknowledged, silenced, unsilenced), inside the caller's audited transaction. */
export function recordUserTransition(
  tx: Transaction,
  alert: AlertRow & { rule: { name: string; severity: string } },
  transition: 'acknowledged' | 'silenced' | 'unsilenced',
  actor: string,
  at: Date,
): Promise<TransitionRange | undefined> {
  return insertTransitions(tx, alert.clusterId, actor, at, [
    {
      alertId: alert.id,
      ruleId: alert.ruleId,
      rule: alert.rule.name,
      severity: alert.rule.severity,
      subject: alert.subject,
      transition,
      state: alert.state,
      value: alert.lastValue,
    },
  ]);
}

export { announceTransitions };

/**
 * Silencing an alert stops what it has not yet said: its queued deliveries (a held firing notification, retries of
 * one not yet through) end as `failed` with the reason, so the log still shows them.
 */
export async function cancelPendingDeliveries(tx: Transaction, alertId: string, at: Date): Promise<void> {
  await tx.alertDelivery.updateMany({
    where: { alertId, status: 'pending' },
    data: { status: 'failed', response: 'cancelled: the alert was silenced', nextAttemptAt: null, at },
  });
}

function payloadOf(
  rule: Rule,
  cluster: { id: string; name: string },
  alert: { id: string; subject: string; state: string; since: Date; lastValue: number | null },
  event: 'firing' | 'resolved',
  url: string | undefined,
): AlertPayload {
  return {
    event,
    ...(url ? { url } : {}),
    alert: {
      id: alert.id,
      rule: rule.name,
      severity: rule.severity,
      clusterId: cluster.id,
      cluster: cluster.name,
      subject: alert.subject,
      state: alert.state,
      value: alert.lastValue,
      since: alert.since.toISOString(),
      labels: (rule.labels ?? {}) as Record<string, string>,
    },
  };
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
  state?: 'firing' | 'resolved' | 'reopened',
): Promise<void> {
  if (changes.length === 0) return;
  const transition =
    state === 'firing'
      ? `state = 'firing', fired_at = $2,`
      : state === 'resolved'
        ? `state = 'resolved', resolved_at = $2,`
        : state === 'reopened'
          ? `state = 'firing', resolved_at = NULL, flap_count = flap_count + 1,`
          : '';
  await tx.$executeRawUnsafe(
    `UPDATE alert SET ${transition} last_value = v.value, updated_at = $2
       FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, value float8)
      WHERE alert.id = v.id`,
    JSON.stringify(changes),
    now,
  );
}

interface CommitSummary {
  readonly transitions: number;
  readonly queuedDeliveries: number;
  /** The alerts whose value alone changed (written, no transition). */
  readonly values: readonly ValueChange[];
}

/** The steps of one evaluation of a cluster, written by `commit`. */
export class TransitionBatch {
  private readonly created: (Omit<AlertRow, 'flapCount' | 'resolvedAt'> & { flapCount: number })[] = [];
  private readonly fired: ValueChange[] = [];
  private readonly reopened: ValueChange[] = [];
  private readonly resolved: ValueChange[] = [];
  private readonly valued: ValueChange[] = [];
  private readonly dropped: string[] = [];
  private readonly unsilenced: string[] = [];
  private readonly deliveries: {
    id: string;
    alertId: string;
    channelId: string;
    event: string;
    payload: object;
    status: string;
    response: string | null;
    at: Date;
    nextAttemptAt: Date;
  }[] = [];
  private readonly log: TransitionEntry[] = [];

  constructor(
    private readonly cluster: { readonly id: string; readonly name: string },
    private readonly now: Date,
    private readonly flapWindowMs: number,
    /** The console's link to an alert (alerting.console-url), carried by its notifications. */
    private readonly linkOf: (alertId: string) => string | undefined = () => undefined,
  ) {}

  private record(
    rule: Rule,
    alertId: string,
    subject: string,
    transition: TransitionKind,
    state: string,
    value: number | null,
  ) {
    this.log.push({
      alertId,
      ruleId: rule.id,
      rule: rule.name,
      severity: rule.severity,
      subject,
      transition,
      state,
      value,
    });
  }

  private queue(rule: Rule, payload: AlertPayload, held: boolean) {
    const at = this.now;
    for (const channelId of rule.channelIds) {
      this.deliveries.push({
        id: randomUUID(),
        alertId: payload.alert.id ?? '',
        channelId,
        event: payload.event,
        payload: jsonOf(payload),
        status: 'pending',
        response: held ? HELD : null,
        at,
        nextAttemptAt: held ? new Date(at.getTime() + this.flapWindowMs) : at,
      });
    }
  }

  /**
   * Steps one subject of a rule: its open alert (if any), this evaluation's observation (if any) and the latest
   * alert of the same subject resolved within the flap window (if any).
   */
  step(
    rule: Rule,
    subject: string,
    alert: SteppedAlert | undefined,
    observation: Observation | undefined,
    recentlyResolved: SteppedAlert | undefined,
  ): void {
    const { now } = this;
    const value = observation?.value ?? alert?.lastValue ?? null;
    if (alert && silenceEnded(alert, now)) {
      this.unsilenced.push(alert.id);
      this.record(rule, alert.id, subject, 'unsilenced', alert.state, value);
    }
    const step = stepOf(
      alert && { state: alert.state as 'pending' | 'firing', since: alert.since, silencedUntil: alert.silencedUntil },
      observation,
      rule.forSeconds * 1_000,
      now,
      {
        resolved: recentlyResolved?.resolvedAt
          ? { resolvedAt: recentlyResolved.resolvedAt, silencedUntil: recentlyResolved.silencedUntil }
          : undefined,
        windowMs: this.flapWindowMs,
      },
    );
    switch (step.kind) {
      case 'none':
        return;
      case 'open': {
        const row = {
          id: randomUUID(),
          ruleId: rule.id,
          clusterId: this.cluster.id,
          subject,
          state: step.state,
          since: now,
          firedAt: step.state === 'firing' ? now : null,
          acknowledgedBy: null,
          acknowledgedAt: null,
          silencedUntil: null,
          silenceReason: null,
          lastValue: value,
          flapCount: 0,
          updatedAt: now,
        };
        this.created.push(row);
        this.record(rule, row.id, subject, step.state, step.state, value);
        if (step.deliver) this.queue(rule, payloadOf(rule, this.cluster, row, 'firing', this.linkOf(row.id)), false);
        return;
      }
      case 'reopen': {
        if (!recentlyResolved) return;
        this.reopened.push({ id: recentlyResolved.id, value });
        this.record(rule, recentlyResolved.id, subject, 'reopened', 'firing', value);
        const reopened = { ...recentlyResolved, state: 'firing', lastValue: value };
        if (step.deliver)
          this.queue(rule, payloadOf(rule, this.cluster, reopened, 'firing', this.linkOf(reopened.id)), true);
        return;
      }
      default:
        break;
    }
    if (!alert) return;
    if (step.kind === 'update') {
      if (alert.lastValue !== value) this.valued.push({ id: alert.id, value });
    } else if (step.kind === 'drop') {
      this.dropped.push(alert.id);
      this.record(rule, alert.id, subject, 'dropped', 'dropped', value);
    } else {
      const state = step.kind === 'fire' ? 'firing' : 'resolved';
      (step.kind === 'fire' ? this.fired : this.resolved).push({ id: alert.id, value });
      this.record(rule, alert.id, subject, state, state, value);
      if (step.deliver)
        this.queue(
          rule,
          payloadOf(rule, this.cluster, { ...alert, state, lastValue: value }, state, this.linkOf(alert.id)),
          false,
        );
    }
  }

  private async write(tx: Transaction): Promise<{ range: TransitionRange | undefined; queued: number }> {
    const { now } = this;
    if (this.created.length > 0) await tx.alert.createMany({ data: this.created });
    if (this.dropped.length > 0) await tx.alert.deleteMany({ where: { id: { in: this.dropped } } });
    if (this.unsilenced.length > 0) {
      await tx.alert.updateMany({
        where: { id: { in: this.unsilenced } },
        data: { silencedUntil: null, silenceReason: null, updatedAt: now },
      });
    }
    await setAlerts(tx, this.fired, now, 'firing');
    await setAlerts(tx, this.reopened, now, 'reopened');
    await setAlerts(tx, this.resolved, now, 'resolved');
    await setAlerts(tx, this.valued, now);
    // A flapping alert that resolves before its held firing notification went out: neither is sent (the receivers'
    // last word, "resolved", is true again). A held row the deliverer has already taken is no longer marked.
    let deliveries = this.deliveries;
    if (this.resolved.length > 0) {
      const cancelled = await tx.$queryRawUnsafe<{ alert_id: string }[]>(
        `DELETE FROM alert_delivery
          WHERE alert_id = ANY($1::uuid[]) AND status = 'pending' AND event = 'firing' AND response = $2
          RETURNING alert_id`,
        this.resolved.map((change) => change.id),
        HELD,
      );
      const quiet = new Set(cancelled.map((row) => row.alert_id));
      if (quiet.size > 0) {
        deliveries = deliveries.filter((delivery) => !(delivery.event === 'resolved' && quiet.has(delivery.alertId)));
      }
    }
    if (deliveries.length > 0) await tx.alertDelivery.createMany({ data: deliveries });
    const range = await insertTransitions(tx, this.cluster.id, 'system', now, this.log);
    return { range, queued: deliveries.length };
  }

  /**
   * Writes everything in one transaction. With transitions, the `alert.transition` audit row (actor `system`, every
   * transition listed) is committed first and finished after; the transitions are announced on `bus` after commit.
   */
  async commit(prisma: PrismaClient, bus: DatabaseBus | undefined): Promise<CommitSummary> {
    if (this.log.length === 0 && this.valued.length === 0) return { transitions: 0, queuedDeliveries: 0, values: [] };
    // Thousands of alerts opening at once (a new rule over a large cluster) take longer than Prisma's 5 s default.
    const inTransaction = () => prisma.$transaction((tx) => this.write(tx), { timeout: 120_000 });
    if (this.log.length === 0) {
      const { queued } = await inTransaction();
      return { transitions: 0, queuedDeliveries: queued, values: this.valued };
    }
    const audit = await openAudit(prisma, systemContext(), {
      action: 'alert.transition',
      target: this.cluster.name,
      cluster: this.cluster,
      parameters: {
        transitions: this.log.map((entry) => ({
          alert: entry.alertId,
          rule: entry.rule,
          subject: entry.subject,
          transition: entry.transition,
        })),
      },
    });
    let written: Awaited<ReturnType<TransitionBatch['write']>>;
    try {
      written = await inTransaction();
    } catch (error) {
      await audit.finish({ outcome: 'FAILED', error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
    await audit.finish({ outcome: 'SUCCEEDED' });
    await announceTransitions(bus, written.range);
    return { transitions: this.log.length, queuedDeliveries: written.queued, values: this.valued };
  }
}
