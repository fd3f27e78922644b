// Each alert condition added for issue 20 judged on a real PostgreSQL, from rows as their owners leave them: queue
// cells, samples rolled into minutes as the scrape's persist step does, dead-letter addresses as the settings read
// records them, verdicts as the metrics worker stores them, the capability ledger written through the clusters
// module's evidence recorder, the worker's subscription rows, and rr_event rows as the rr module's writer stores them
// (its two conditions). Rules are created over REST (their parameters validated there) and evaluated by the
// evaluator the worker runs; a condition that answers wrong fails its test.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { insertScrapedNode, insertScrapedQueues, recountTotals } from '@test/queue-rows.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';
import { installedModules } from '@/installation/modules.ts';
import { resolveModules } from '@/modules/kernel/plugin/index.ts';
import { recordManagementEvidence } from '@/modules/platform/clusters/index.ts';
import { makeDayPartitions, rollUpSamples } from '@/modules/platform/scrape/index.ts';
import { evaluateCluster, observe } from './evaluator.ts';

let secured: SecuredRuntime;
let auth: AuthHeaders;
const now = Date.now();

const deps = () => ({ db: secured.runtime.db, prisma: secured.runtime.prisma, registry: secured.runtime.registry });

async function createRule(clusterId: string, body: Record<string, unknown>): Promise<string> {
  const response = await secured.rest(
    new Request('http://127.0.0.1/api/v1/alerts/rules', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ clusterId, ...body }),
    }),
  );
  const json = (await response.json()) as { rule: { id: string } };
  expect(response.status, JSON.stringify(json)).toBe(200);
  return json.rule.id;
}

/** The rule's open and resolved alerts, subject → [state, value]. */
async function alertsOf(ruleId: string) {
  const alerts = await secured.runtime.prisma.alert.findMany({ where: { ruleId }, orderBy: { subject: 'asc' } });
  return Object.fromEntries(alerts.map((alert) => [alert.subject, [alert.state, alert.lastValue]]));
}

interface Sample {
  /** Seconds before `now`. */
  readonly ago: number;
  readonly depth: number;
  readonly added: number;
  readonly acked: number;
}

/** A sample every 10 s from `from` seconds ago until now, the numbers as the traffic shape says at each. */
function traffic(from: number, shape: (elapsed: number) => Omit<Sample, 'ago'>): Sample[] {
  return Array.from({ length: from / 10 + 1 }, (_, i) => ({ ago: from - i * 10, ...shape(i * 10) }));
}

/** A queue's cell as the scrape left it after these samples (the last one is the listing), rolled into minutes. */
async function queueWith(
  target: { clusterId: string; nodeId: string },
  queueName: string,
  samples: readonly Sample[],
  extra: { address?: string; consumers?: number } = {},
) {
  const { prisma, db } = secured.runtime;
  const last = samples.at(-1) ?? { depth: 0, added: 0, acked: 0 };
  await insertScrapedQueues(prisma, { ...target, scrapedAt: new Date(now) }, [
    { queueName, messageCount: last.depth, consumerCount: extra.consumers ?? 0, address: extra.address ?? queueName },
  ]);
  const cell = await prisma.queueSnapshot.findFirstOrThrow({ where: { nodeId: target.nodeId, queueName } });
  await prisma.queueSnapshot.update({
    where: { id: cell.id },
    data: { messagesAdded: BigInt(last.added), messagesAcked: BigInt(last.acked) },
  });
  await prisma.metricSample.createMany({
    data: samples.map((sample) => ({
      queueId: cell.id,
      ts: new Date(now - sample.ago * 1_000),
      messageCount: BigInt(sample.depth),
      consumerCount: extra.consumers ?? 0,
      deliveringCount: 0n,
      messagesAdded: BigInt(sample.added),
      messagesAcked: BigInt(sample.acked),
      messagesExpired: 0n,
    })),
  });
  await rollUpSamples((sql, params) => db.query(sql, params), [cell.id]);
  await recountTotals(prisma, target.clusterId);
}

async function servedCluster(name: string) {
  const clusterId = await insertClusterRow(secured.runtime.prisma, { name });
  const nodeId = await insertScrapedNode(secured.runtime.prisma, {
    clusterId,
    brokerNodeId: `${name}-node`,
    brokerName: `${name}-broker`,
    serving: true,
    sweptAt: new Date(now),
  });
  return { clusterId, nodeId };
}

beforeAll(async () => {
  secured = await openSecuredRuntime();
  auth = await signIn(secured.rest, 'http://127.0.0.1');
  // The day partitions of the samples and their rollup (the scrape's maintenance job makes them in production).
  await makeDayPartitions(
    (sql) => secured.runtime.db.query(sql),
    [-1, 0, 1].map((offset) => new Date(now + offset * 86_400_000)),
  );
});

afterAll(async () => {
  await secured.close();
});

describe('queue thresholds', () => {
  let target: { clusterId: string; nodeId: string };

  beforeAll(async () => {
    target = await servedCluster('thresholds');
    // Depth 10 → 40 over five minutes, nobody consuming.
    await queueWith(
      target,
      'orders.growing',
      traffic(300, (s) => ({ depth: 10 + s / 10, added: 10 + s / 10, acked: 0 })),
    );
    // Depth steady at 50: as much consumed as produced.
    await queueWith(
      target,
      'orders.flat',
      traffic(300, (s) => ({ depth: 50, added: 50 + s, acked: s })),
    );
    // One message a second for ten minutes; consumption starts after five, one a second: the oldest message left
    // now is the 300th, put on the queue five minutes ago.
    await queueWith(
      target,
      'orders.aged',
      traffic(600, (s) => ({ depth: s - Math.max(0, s - 300), added: s, acked: Math.max(0, s - 300) })),
    );
    // Messages only for the last minute.
    await queueWith(
      target,
      'orders.fresh',
      traffic(60, (s) => ({ depth: s, added: s, acked: 0 })),
    );
    await queueWith(
      target,
      'orders.empty',
      traffic(120, () => ({ depth: 0, added: 7, acked: 7 })),
    );
  });

  it('on growth fire on a queue whose depth rose by more than the threshold over the window, not on a flat one', async () => {
    const ruleId = await createRule(target.clusterId, {
      name: 'orders growing',
      condition: { kind: 'queue-threshold', params: { metric: 'growth', threshold: 20, windowSeconds: 300 } },
      pattern: 'orders.*',
    });
    await evaluateCluster(deps(), target.clusterId, new Date(now));
    const alerts = await alertsOf(ruleId);
    expect(alerts['orders.growing']).toEqual(['firing', 30]);
    expect(alerts).not.toHaveProperty('orders.flat');
    expect(alerts).not.toHaveProperty('orders.empty');
  });

  it('on the oldest message’s age fire when it is older than the threshold, judged from the counters', async () => {
    const older = await createRule(target.clusterId, {
      name: 'orders waiting 4 min',
      condition: { kind: 'queue-threshold', params: { metric: 'oldestAge', threshold: 200 } },
      pattern: 'orders.*',
    });
    const younger = await createRule(target.clusterId, {
      name: 'orders waiting 6 min',
      condition: { kind: 'queue-threshold', params: { metric: 'oldestAge', threshold: 360 } },
      pattern: 'orders.*',
    });
    await evaluateCluster(deps(), target.clusterId, new Date(now));
    const fired = await alertsOf(older);
    // orders.growing has held messages since its first sample, five minutes ago; orders.flat's oldest is 50 s old.
    expect(Object.keys(fired)).toEqual(['orders.aged', 'orders.growing']);
    // A lower bound within a minute of the truth (300 s): the minute it was seen put on the queue.
    const [state, age] = fired['orders.aged'] ?? [];
    expect(state).toBe('firing');
    expect(age).toBeGreaterThanOrEqual(240);
    expect(age).toBeLessThanOrEqual(300);
    expect(await alertsOf(younger)).toEqual({});
    const observed = await observe(
      deps(),
      { conditionKind: 'queue-threshold', params: { metric: 'oldestAge', threshold: 200 }, pattern: 'orders.*' },
      target.clusterId,
      new Date(now),
    );
    const bySubject = new Map(observed?.map((result) => [result.subject, result]));
    expect(bySubject.get('orders.fresh')).toMatchObject({ firing: false });
    expect(bySubject.get('orders.fresh')?.value).toBeLessThanOrEqual(60);
    expect(bySubject.get('orders.empty')).toEqual({ subject: 'orders.empty', value: 0, firing: false });
  });
});

describe('dlq-growing', () => {
  it('fires on a dead-letter queue named by the address settings that grew over the window, not on others', async () => {
    const target = await servedCluster('dead-letters');
    // What the scrape's dead-letter settings read records: DLQ is a dead-letter address, ExpiryQueue an expiry one.
    await secured.runtime.db.query(
      `INSERT INTO scrape_dead_letter_address (cluster_id, address, kind)
       VALUES ($1, 'DLQ', 'dead-letter'), ($1, 'ExpiryQueue', 'expiry')`,
      [target.clusterId],
    );
    const rising = (s: number) => ({ depth: 3 + Math.floor(s / 60), added: 3 + Math.floor(s / 60), acked: 0 });
    await queueWith(target, 'DLQ', traffic(300, rising));
    await queueWith(target, 'ExpiryQueue', traffic(300, rising));
    // Grows too, but no address setting names it: a name is no evidence.
    await queueWith(target, 'orders.DLQ', traffic(300, rising));
    const ruleId = await createRule(target.clusterId, {
      name: 'dead letters piling up',
      condition: { kind: 'dlq-growing', params: { windowSeconds: 300 } },
    });
    await evaluateCluster(deps(), target.clusterId, new Date(now));
    expect(await alertsOf(ruleId)).toEqual({ DLQ: ['firing', 5] });

    const both = await observe(
      deps(),
      { conditionKind: 'dlq-growing', params: { kinds: ['dead-letter', 'expiry'], minIncrease: 6 }, pattern: null },
      target.clusterId,
      new Date(now),
    );
    expect(both?.sort((a, b) => a.subject.localeCompare(b.subject))).toEqual([
      { subject: 'DLQ', value: 5, firing: false },
      { subject: 'ExpiryQueue', value: 5, firing: false },
    ]);
  });
});

describe('consumer-health', () => {
  it('fires on the queues whose stored verdict the rule names, and judges nothing with metrics off', async () => {
    const target = await servedCluster('consumers');
    for (const name of ['work.stalled', 'work.fine', 'work.starved']) {
      await queueWith(
        target,
        name,
        traffic(60, () => ({ depth: 5, added: 5, acked: 0 })),
        { consumers: 1 },
      );
    }
    // As the metrics worker stores its evaluation of the cluster.
    await secured.runtime.db.query(
      `INSERT INTO queue_verdict (cluster_id, address, queue_name, routing_type, verdict, severity, depth, consumers,
                                  delivering, evaluated_at)
       SELECT $1, address, queue_name, routing_type,
              CASE queue_name WHEN 'work.stalled' THEN 'STALLED' WHEN 'work.starved' THEN 'STARVED' ELSE 'HEALTHY' END,
              0, 5, 1, 0, now()
         FROM queue_total WHERE cluster_id = $1`,
      [target.clusterId],
    );
    const stalled = await createRule(target.clusterId, {
      name: 'consumers stalled',
      condition: { kind: 'consumer-health', params: {} },
    });
    const starvedOrStalled = await createRule(target.clusterId, {
      name: 'consumers starved or stalled',
      condition: { kind: 'consumer-health', params: { verdicts: ['STARVED', 'STALLED'] } },
      pattern: 'work.*',
    });
    await evaluateCluster(deps(), target.clusterId, new Date(now));
    expect(await alertsOf(stalled)).toEqual({ 'work.stalled': ['firing', 1] });
    expect(await alertsOf(starvedOrStalled)).toEqual({
      'work.stalled': ['firing', 1],
      'work.starved': ['firing', 1],
    });

    // Metrics turned off (and triage, which needs it): alerting still runs, and the condition says nothing.
    const withoutMetrics = resolveModules(installedModules, {
      environment: { FLOTILLA_FEATURES_METRICS_ENABLED: 'false', FLOTILLA_FEATURES_TRIAGE_ENABLED: 'false' },
      stored: new Map(),
    });
    expect(withoutMetrics.isEnabled('alerting')).toBe(true);
    expect(
      await observe(
        { ...deps(), registry: withoutMetrics },
        { conditionKind: 'consumer-health', params: {}, pattern: null },
        target.clusterId,
        new Date(now),
      ),
    ).toEqual([]);
  });
});

describe('capability-lost', () => {
  it('fires when a capability goes from AVAILABLE to not, stays firing while lost, resolves when back', async () => {
    const { clusterId } = await servedCluster('capabilities');
    const pool = secured.runtime.db.pool;
    const refused = {
      answered: [],
      failed: [{ node: 'broker-1', kind: 'auth-failed', message: '401', advice: 'check the password', snippet: null }],
    };
    await recordManagementEvidence(pool, clusterId, { answered: ['broker-1'], failed: [] });
    const ruleId = await createRule(clusterId, {
      name: 'capability gone',
      condition: { kind: 'capability-lost', params: {} },
    });
    await evaluateCluster(deps(), clusterId, new Date(now));
    expect(await alertsOf(ruleId)).toEqual({});

    // A refused login: MANAGEMENT_READ was available and is lost; MANAGEMENT_WRITE was never seen available.
    await recordManagementEvidence(pool, clusterId, refused);
    await evaluateCluster(deps(), clusterId, new Date(now + 5_000));
    expect(await alertsOf(ruleId)).toEqual({ MANAGEMENT_READ: ['firing', 0] });
    await evaluateCluster(deps(), clusterId, new Date(now + 10_000));
    expect(await alertsOf(ruleId)).toEqual({ MANAGEMENT_READ: ['firing', 0] });
    // Nothing is remembered between evaluations: a rule first judged while the capability is lost (a restarted or
    // new owner judging it) sees the loss too, from when the ledger last confirmed it available.
    const later = await createRule(clusterId, {
      name: 'capability gone, judged later',
      condition: { kind: 'capability-lost', params: { capabilities: ['MANAGEMENT_READ', 'MANAGEMENT_WRITE'] } },
    });
    await evaluateCluster(deps(), clusterId, new Date(now + 12_000));
    expect(await alertsOf(later)).toEqual({ MANAGEMENT_READ: ['firing', 0] });

    await recordManagementEvidence(pool, clusterId, { answered: ['broker-1'], failed: [] });
    await evaluateCluster(deps(), clusterId, new Date(now + 15_000));
    expect(await alertsOf(ruleId)).toEqual({ MANAGEMENT_READ: ['resolved', 1] });
    expect(await alertsOf(later)).toEqual({ MANAGEMENT_READ: ['resolved', 1] });
  });
});

describe('subscription-lost', () => {
  it('fires when a serving node’s subscription has not been established for the for-duration', async () => {
    const { clusterId, nodeId } = await servedCluster('subscriptions');
    const { prisma } = secured.runtime;
    const node = await prisma.clusterNode.findUniqueOrThrow({ where: { id: nodeId } });
    await prisma.clusterNodeSubscription.create({
      data: { nodeId, clusterId, state: 'established', since: new Date(now - 600_000), instanceId: randomUUID() },
    });
    const ruleId = await createRule(clusterId, {
      name: 'notifications lost',
      condition: { kind: 'subscription-lost', params: {} },
      forSeconds: 30,
    });
    await evaluateCluster(deps(), clusterId, new Date(now));
    expect(await alertsOf(ruleId)).toEqual({});

    // As the HA reconciler records a refusal: the state and since when.
    await prisma.clusterNodeSubscription.update({
      where: { nodeId },
      data: { state: 'refused', reason: 'address missing', cause: 'address-missing', since: new Date(now) },
    });
    await evaluateCluster(deps(), clusterId, new Date(now + 10_000));
    expect(await alertsOf(ruleId)).toEqual({ [node.managementUrl]: ['pending', 10] });
    await evaluateCluster(deps(), clusterId, new Date(now + 41_000));
    expect(await alertsOf(ruleId)).toEqual({ [node.managementUrl]: ['firing', 41] });

    await prisma.clusterNodeSubscription.update({
      where: { nodeId },
      data: { state: 'established', reason: null, cause: null, since: new Date(now + 45_000) },
    });
    await evaluateCluster(deps(), clusterId, new Date(now + 50_000));
    expect(await alertsOf(ruleId)).toEqual({ [node.managementUrl]: ['resolved', 5] });
  });
});

describe('rr-timed-out-share and rr-p95-latency', () => {
  interface RrRow {
    readonly address: string;
    readonly state: string;
    readonly latencyMs?: number;
    /** Seconds before `now` the correlation reached its state. */
    readonly ago: number;
  }

  /** Correlations as the rr module's writer stores them in rr_event (the columns of prisma/schema/rr.prisma). */
  async function insertCorrelations(clusterId: string, rows: readonly RrRow[]) {
    const records = rows.map((row, index) => {
      const stateAt = now - row.ago * 1_000;
      const requestAt = stateAt - (row.latencyMs ?? 5_000);
      return {
        key_hash: `${clusterId}/${String(index)}`,
        address: row.address,
        state: row.state,
        latency_ms: row.latencyMs ?? null,
        request_at: new Date(requestAt).toISOString(),
        reply_at: row.latencyMs === undefined ? null : new Date(stateAt).toISOString(),
        state_at: new Date(stateAt).toISOString(),
      };
    });
    await secured.runtime.db.query(
      `INSERT INTO rr_event (cluster_id, key_hash, address, reply_address, pattern, state, feed, node_id,
                             correlation_id, message_id, broker_message_id, request_at, reply_at, latency_ms, clock,
                             deadline_at, deadline_source, state_at, note, headers, policy_version, redactions,
                             sealed_cipher, sealed_key_id, stored_at)
       SELECT $1::uuid, r.key_hash, r.address, r.address || '.reply', 'shared-reply', r.state, 'capture', $2::uuid,
              NULL, NULL, NULL, r.request_at, r.reply_at, r.latency_ms, 'message',
              r.request_at + interval '5 seconds', 'expectation', r.state_at, NULL, NULL, 0, '[]'::jsonb,
              NULL, NULL, now()
         FROM jsonb_to_recordset($3::jsonb) AS r(key_hash text, address text, state text, latency_ms integer,
                                                 request_at timestamptz, reply_at timestamptz, state_at timestamptz)`,
      [clusterId, randomUUID(), JSON.stringify(records)],
    );
  }

  const many = (count: number, row: (index: number) => RrRow) => Array.from({ length: count }, (_, i) => row(i));
  const HEALTHY_LATENCIES = Array.from({ length: 20 }, (_, i) => 50 + i * 5);

  it('fire both on the address with 30 % timed out and a p95 of 900 ms, neither on the healthy one nor below minRequests', async () => {
    const clusterId = await insertClusterRow(secured.runtime.prisma, { name: 'request-reply' });
    await insertCorrelations(clusterId, [
      // Unhealthy: 10 settled, 3 TIMED_OUT (30 %); the completed pairs' p95 is 900 ms.
      ...[300, 400, 500, 600, 700, 900, 900].map((latencyMs, i) => ({
        address: 'orders.request',
        state: 'COMPLETED',
        latencyMs,
        ago: 30 + i,
      })),
      ...many(3, (i) => ({ address: 'orders.request', state: 'TIMED_OUT', ago: 40 + i })),
      // Waiting and replies nobody asked for are not settled requests: they change neither number.
      ...many(4, (i) => ({ address: 'orders.request', state: 'AWAITING_REPLY', ago: 5 + i })),
      // Healthy: 20 completed pairs between 50 and 145 ms, none timed out.
      ...HEALTHY_LATENCIES.map((latencyMs, i) => ({
        address: 'billing.request',
        state: 'COMPLETED',
        latencyMs,
        ago: 20 + i,
      })),
      ...many(3, (i) => ({ address: 'billing.request.reply', state: 'ORPHANED_REPLY', ago: 10 + i })),
      // Timeouts and slow pairs before the window (300 s) are not judged.
      ...many(10, (i) => ({ address: 'billing.request', state: 'TIMED_OUT', ago: 400 + i })),
      ...many(10, (i) => ({ address: 'billing.request', state: 'COMPLETED', latencyMs: 5_000, ago: 400 + i })),
      // Below minRequests (5): three settled, two of them timed out, the one completed slow.
      { address: 'rare.request', state: 'COMPLETED', latencyMs: 4_000, ago: 50 },
      ...many(2, (i) => ({ address: 'rare.request', state: 'TIMED_OUT', ago: 60 + i })),
    ]);
    const timedOut = await createRule(clusterId, {
      name: 'requests timing out',
      condition: { kind: 'rr-timed-out-share', params: { thresholdPercent: 10, minRequests: 5 } },
    });
    const slow = await createRule(clusterId, {
      name: 'replies slow',
      condition: { kind: 'rr-p95-latency', params: { thresholdMs: 500, minRequests: 5 } },
    });
    await evaluateCluster(deps(), clusterId, new Date(now));
    expect(await alertsOf(timedOut)).toEqual({ 'orders.request': ['firing', 30] });
    expect(await alertsOf(slow)).toEqual({ 'orders.request': ['firing', 900] });

    // What each judged: the healthy address not firing, the rare one not at all.
    const judged = async (conditionKind: string, params: Record<string, number>) =>
      (await observe(deps(), { conditionKind, params, pattern: null }, clusterId, new Date(now)))?.sort((a, b) =>
        a.subject.localeCompare(b.subject),
      );
    expect(await judged('rr-timed-out-share', { thresholdPercent: 10, minRequests: 5 })).toEqual([
      { subject: 'billing.request', value: 0, firing: false },
      { subject: 'orders.request', value: 30, firing: true },
    ]);
    const p95 = await judged('rr-p95-latency', { thresholdMs: 500, minRequests: 5 });
    expect(p95?.map((result) => [result.subject, result.firing])).toEqual([
      ['billing.request', false],
      ['orders.request', true],
    ]);
    // percentile_cont over 50, 55, …, 145: between the 19th and 20th values.
    expect(p95?.[0]?.value).toBeCloseTo(140.25, 6);
    // With minRequests lowered to what it has, the rare address is judged (and fires on both).
    expect(await judged('rr-timed-out-share', { thresholdPercent: 10, minRequests: 3 })).toContainEqual({
      subject: 'rare.request',
      value: (2 / 3) * 100,
      firing: true,
    });
    expect(await judged('rr-p95-latency', { thresholdMs: 500, minRequests: 1 })).toContainEqual({
      subject: 'rare.request',
      value: 4_000,
      firing: true,
    });
    // A pattern narrows the addresses judged.
    const narrowed = await observe(
      deps(),
      { conditionKind: 'rr-p95-latency', params: { thresholdMs: 500, minRequests: 5 }, pattern: 'billing.*' },
      clusterId,
      new Date(now),
    );
    expect(narrowed?.map((result) => [result.subject, result.firing])).toEqual([['billing.request', false]]);
  });

  it('refuses a rule whose parameters the condition does not accept', async () => {
    const clusterId = await insertClusterRow(secured.runtime.prisma, { name: 'request-reply-refused' });
    const response = await secured.rest(
      new Request('http://127.0.0.1/api/v1/alerts/rules', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          clusterId,
          name: 'bad',
          condition: { kind: 'rr-timed-out-share', params: { thresholdPercent: 150 } },
        }),
      }),
    );
    expect(response.status).toBe(400);
  });
});
