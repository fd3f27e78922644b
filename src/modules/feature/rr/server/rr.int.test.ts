// Request-reply tracing on a real PostgreSQL, without a broker: expectations over REST (dry run, versions, history,
// audit, the refusals and who may do what), correlations written through the real RrWriter (the policy masking what
// a correlation that did not complete keeps) and read back over REST as flows, one flow over time, the correlations
// that did not complete and a trace, and the retention job deleting what was stored before now − events.retention.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { userWithToken } from '@test/mcp-client.ts';
import { callRest, type RestAnswer, type RestCall } from '@test/rest-call.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn } from '@test/sign-in.ts';
import type { JobContext } from '@/modules/kernel/plugin/index.ts';
import { EVENTS_SETTINGS } from '@/modules/feature/events/index.ts';
import type { Correlation, RrState } from './correlator/rr-types.ts';
import { run as runRetention } from './jobs/rr-retention.job.ts';
import { keyHashOf } from './store/correlation-rows.ts';
import { RrWriter } from './store/rr-writer.ts';

const CARD = '4111111111111111';
const UNKNOWN_CLUSTER = '00000000-0000-4000-8000-0000000000aa';

let secured: SecuredRuntime;
let admin: RestCall;
let viewer: RestCall;
let stranger: RestCall;
/** The cluster of the expectations tests, and the one a scoped operator may manage (and the stranger sees nothing of). */
const clusters = { expectations: '', reads: '', states: '', retention: '', scoped: '' };
/** What the writer logged (a failed flush is logged, not thrown) and the signals it published. */
const writerLog: string[] = [];
const signals: Array<[string, string]> = [];
let writer: RrWriter;

const bearer =
  (token: string): RestCall =>
  (method, path, body) =>
    callRest(secured.rest, { authorization: `Bearer ${token}` }, method, path, body);

interface Problem {
  type: string;
  status: number;
  detail?: string;
  errors?: Array<{ field: string; message: string }>;
}

/** The problem+json answer, without its request id (which differs on every call). */
function expectProblem(answer: RestAnswer<unknown>, status: number): Problem {
  expect(answer.status, JSON.stringify(answer.json)).toBe(status);
  expect(answer.headers.get('content-type')).toContain('application/problem+json');
  const { requestId, ...problem } = answer.json as Problem & { requestId?: string };
  expect(requestId).toEqual(expect.any(String));
  return problem;
}

beforeAll(async () => {
  secured = await openSecuredRuntime();
  ({ call: admin } = await secured.signedIn());
  const { prisma } = secured.runtime;
  clusters.expectations = await insertClusterRow(prisma, { name: 'rr-expectations' });
  clusters.reads = await insertClusterRow(prisma, { name: 'rr-reads' });
  clusters.states = await insertClusterRow(prisma, { name: 'rr-states' });
  clusters.retention = await insertClusterRow(prisma, { name: 'rr-retention' });
  clusters.scoped = await insertClusterRow(prisma, { name: 'rr-scoped' });
  viewer = bearer(
    await userWithToken(secured.runtime, secured.rest, { username: 'vera', role: 'viewer', tokenName: 'v' }),
  );
  // An operator whose one grant reaches the scoped cluster only.
  const password = 'a long password for the scoped operator';
  const user = await admin<{ user: { id: string } }>('POST', '/users', {
    username: 'stan',
    password,
    mustChangePassword: false,
  });
  expect(user.status, JSON.stringify(user.json)).toBe(200);
  const operator = await prisma.role.findFirstOrThrow({ where: { name: 'operator' } });
  const grant = await admin('POST', '/grants', {
    userId: user.json.user.id,
    roleId: operator.id,
    scope: { kind: 'CLUSTER', id: clusters.scoped },
  });
  expect(grant.status, JSON.stringify(grant.json)).toBe(200);
  const auth = await signIn(secured.rest, 'http://127.0.0.1', { username: 'stan', password });
  stranger = (method, path, body) => callRest(secured.rest, auth, method, path, body);

  writer = new RrWriter({
    pool: secured.runtime.db.pool,
    governance: { db: secured.runtime.db, bus: secured.runtime.bus },
    publishSignal: (topic, clusterId) => {
      signals.push([topic, clusterId]);
      return Promise.resolve();
    },
    log: (message) => writerLog.push(message),
  });
}, 60_000);

afterAll(async () => {
  await secured.close();
});

interface Expectation {
  address: string;
  replyAddress: string | null;
  expectedLatencyMs: number;
  deadlineMs: number;
  version: number;
  updatedBy: string | null;
}
interface Revision {
  version: number;
  replyAddress: string | null;
  expectedLatencyMs: number | null;
  deadlineMs: number | null;
  removed: boolean;
  actor: string | null;
}

describe('expectations over REST', () => {
  const base = () => `/clusters/${clusters.expectations}/rr/expectations`;
  const listed = async () => (await admin<{ items: Expectation[] }>('GET', base())).json.items;
  const history = async (address: string) => {
    const answer = await admin<{ items: Revision[] }>(
      'GET',
      `${base()}/history?address=${encodeURIComponent(address)}`,
    );
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    return answer.json.items;
  };
  const auditRows = () =>
    secured.runtime.prisma.auditEvent.findMany({
      where: { action: { startsWith: 'rr.expectation.' } },
      orderBy: { startedAt: 'asc' },
      select: { action: true, dryRun: true, target: true, clusterId: true, outcome: true, parameters: true },
    });
  /** Everything a refused change must leave as it was. */
  const snapshot = async () => ({
    expectations: await secured.runtime.prisma.rrExpectation.findMany({ orderBy: { address: 'asc' } }),
    revisions: await secured.runtime.prisma.rrExpectationRevision.count(),
    audit: (await auditRows()).length,
  });

  it('stores nothing on a dry run but audits it; versions each change, a removal and a re-declaration included', async () => {
    const dry = await admin<{ version: number; dryRun: boolean; next: string }>('PUT', base(), {
      address: 'orders.request',
      replyAddress: 'orders.reply',
      expectedLatencyMs: 200,
      deadlineMs: 5_000,
      dryRun: true,
    });
    expect(dry.status, JSON.stringify(dry.json)).toBe(200);
    expect(dry.json).toMatchObject({ version: 1, dryRun: true });
    expect(dry.json.next).toMatch(/^Dry run: nothing stored/);
    expect(await listed()).toEqual([]);
    expect(await history('orders.request')).toEqual([]);
    expect(await auditRows()).toEqual([
      {
        action: 'rr.expectation.create',
        dryRun: true,
        target: 'orders.request',
        clusterId: clusters.expectations,
        outcome: 'SUCCEEDED',
        parameters: { replyAddress: 'orders.reply', expectedLatencyMs: 200, deadlineMs: 5_000, version: 1 },
      },
    ]);

    const first = await admin('PUT', base(), {
      address: 'orders.request',
      replyAddress: 'orders.reply',
      expectedLatencyMs: 200,
      deadlineMs: 5_000,
    });
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json).toMatchObject({ address: 'orders.request', version: 1, dryRun: false });
    expect(await listed()).toMatchObject([
      {
        address: 'orders.request',
        replyAddress: 'orders.reply',
        expectedLatencyMs: 200,
        deadlineMs: 5_000,
        version: 1,
        updatedBy: 'admin',
      },
    ]);

    const second = await admin('PUT', base(), { address: 'orders.request', expectedLatencyMs: 300, deadlineMs: 9_000 });
    expect(second.status, JSON.stringify(second.json)).toBe(200);
    expect(second.json).toMatchObject({ version: 2 });
    expect(await listed()).toMatchObject([
      { address: 'orders.request', replyAddress: null, expectedLatencyMs: 300, deadlineMs: 9_000, version: 2 },
    ]);

    // A dry-run removal removes nothing.
    const dryRemoval = await admin('DELETE', `${base()}?address=orders.request&dryRun=true`);
    expect(dryRemoval.status, JSON.stringify(dryRemoval.json)).toBe(200);
    expect(dryRemoval.json).toMatchObject({ version: 3, dryRun: true });
    expect((await listed()).map((row) => row.version)).toEqual([2]);

    const removed = await admin('DELETE', `${base()}?address=orders.request`);
    expect(removed.status, JSON.stringify(removed.json)).toBe(200);
    expect(removed.json).toMatchObject({ version: 3, dryRun: false });
    expect(await listed()).toEqual([]);
    expect(await history('orders.request')).toMatchObject([
      { version: 3, removed: true, expectedLatencyMs: null, deadlineMs: null, actor: 'admin' },
      { version: 2, removed: false, replyAddress: null, expectedLatencyMs: 300, deadlineMs: 9_000 },
      { version: 1, removed: false, replyAddress: 'orders.reply', expectedLatencyMs: 200, deadlineMs: 5_000 },
    ]);
    // Removing what is not declared is a 404.
    expectProblem(await admin('DELETE', `${base()}?address=orders.request`), 404);

    const again = await admin('PUT', base(), { address: 'orders.request', expectedLatencyMs: 50, deadlineMs: 1_000 });
    expect(again.status, JSON.stringify(again.json)).toBe(200);
    expect(again.json).toMatchObject({ version: 4 });
    expect((await history('orders.request')).map((row) => [row.version, row.removed])).toEqual([
      [4, false],
      [3, true],
      [2, false],
      [1, false],
    ]);

    expect(
      (await auditRows()).map(
        (row) =>
          `${row.action}${row.dryRun ? ' (dry run)' : ''} v${String((row.parameters as { version: number }).version)}`,
      ),
    ).toEqual([
      'rr.expectation.create (dry run) v1',
      'rr.expectation.create v1',
      'rr.expectation.update v2',
      'rr.expectation.remove (dry run) v3',
      'rr.expectation.remove v3',
      'rr.expectation.create v4',
    ]);
  });

  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    const before = await snapshot();
    const put = (body: Record<string, unknown>) => admin('PUT', base(), body);
    const fieldsOf = (problem: Problem) => problem.errors?.map((error) => error.field);

    const tooShort = expectProblem(
      await put({ address: 'orders.request', expectedLatencyMs: 2_000, deadlineMs: 1_000 }),
      400,
    );
    expect(fieldsOf(tooShort)).toEqual(['deadlineMs']);
    const loop = expectProblem(
      await put({
        address: 'orders.request',
        replyAddress: 'orders.request',
        expectedLatencyMs: 10,
        deadlineMs: 1_000,
      }),
      400,
    );
    expect(fieldsOf(loop)).toEqual(['replyAddress']);
    // Not a number. (A numeric string such as "200" is coerced to a number by trpc-to-openapi on every endpoint's
    // JSON body, not by rr's schema: that is the REST edge's behaviour, not tested here.)
    const text = expectProblem(
      await put({ address: 'orders.request', expectedLatencyMs: 'fast', deadlineMs: 1_000 }),
      400,
    );
    expect(fieldsOf(text)).toEqual(['expectedLatencyMs']);
    const fraction = expectProblem(
      await put({ address: 'orders.request', expectedLatencyMs: 1.5, deadlineMs: 1_000 }),
      400,
    );
    expect(fieldsOf(fraction)).toEqual(['expectedLatencyMs']);
    const missing = expectProblem(await put({ address: '', expectedLatencyMs: 10, deadlineMs: 1_000 }), 400);
    expect(fieldsOf(missing)).toContain('address');
    const dryRunText = expectProblem(
      await put({ address: 'orders.request', expectedLatencyMs: 10, deadlineMs: 1_000, dryRun: 'yes' }),
      400,
    );
    expect(fieldsOf(dryRunText)).toEqual(['dryRun']);
    // The broker's own addresses are no request addresses, nor reply addresses.
    const management = expectProblem(
      await put({ address: 'activemq.management', expectedLatencyMs: 10, deadlineMs: 1_000 }),
      400,
    );
    expect(fieldsOf(management)).toEqual(['address']);
    expect(management.errors?.[0]?.message).toContain('activemq.management');
    const notifications = expectProblem(
      await put({
        address: 'orders.request',
        replyAddress: 'activemq.notifications',
        expectedLatencyMs: 10,
        deadlineMs: 1_000,
      }),
      400,
    );
    expect(fieldsOf(notifications)).toEqual(['replyAddress']);
    expect(notifications.errors?.[0]?.message).toContain('activemq.notifications');
    // A reserved name refused on a dry run too.
    expectProblem(
      await put({ address: 'activemq.notifications', expectedLatencyMs: 10, deadlineMs: 1_000, dryRun: true }),
      400,
    );
    // The address of a history is one value, not two.
    const twice = await admin('GET', `${base()}/history?address=orders.request&address=orders.reply`);
    expectProblem(twice, 400);
    expectProblem(await admin('GET', `${base()}/history`), 400);
    expectProblem(await admin('DELETE', `${base()}?address=orders.request&dryRun=maybe`), 400);
    expect(await snapshot()).toEqual(before);
  });

  it('ignores a field it does not know, as the other endpoints do (the schemas are not strict)', async () => {
    const answer = await admin('PUT', base(), {
      address: 'unknown.field',
      expectedLatencyMs: 10,
      deadlineMs: 1_000,
      dryRun: true,
      colour: 'blue',
    });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json).not.toHaveProperty('colour');
  });

  it('answers an unknown cluster and a cluster out of the caller’s grants with the same 404', async () => {
    const unknown = expectProblem(await stranger('GET', `/clusters/${UNKNOWN_CLUSTER}/rr/expectations`), 404);
    const notMine = expectProblem(await stranger('GET', base()), 404);
    expect(notMine).toEqual(unknown);
    const put = { address: 'orders.request', expectedLatencyMs: 10, deadlineMs: 1_000 };
    const unknownPut = expectProblem(await stranger('PUT', `/clusters/${UNKNOWN_CLUSTER}/rr/expectations`, put), 404);
    const notMinePut = expectProblem(await stranger('PUT', base(), put), 404);
    expect(notMinePut).toEqual(unknownPut);
    expect(notMinePut.type).toBe(unknown.type);
    for (const path of ['flows', 'flow?address=orders.request', 'correlations', 'trace?correlationId=x']) {
      expectProblem(await stranger('GET', `/clusters/${clusters.expectations}/rr/${path}`), 404);
      expectProblem(await admin('GET', `/clusters/${UNKNOWN_CLUSTER}/rr/${path}`), 404);
    }
    // Where the grant reaches, the same operator declares.
    const own = await stranger('PUT', `/clusters/${clusters.scoped}/rr/expectations`, put);
    expect(own.status, JSON.stringify(own.json)).toBe(200);
    expect((await admin<{ items: Expectation[] }>('GET', base())).json.items.map((row) => row.version)).toEqual([4]);
  });

  it('lets a viewer read but not declare or remove', async () => {
    const read = await viewer<{ items: Expectation[] }>('GET', base());
    expect(read.status).toBe(200);
    expect(read.json.items.map((row) => row.address)).toEqual(['orders.request']);
    expect((await viewer('GET', `${base()}/history?address=orders.request`)).status).toBe(200);
    const put = expectProblem(
      await viewer('PUT', base(), { address: 'orders.request', expectedLatencyMs: 10, deadlineMs: 1_000 }),
      403,
    );
    expect(put.type).toBe('forbidden');
    expectProblem(await viewer('DELETE', `${base()}?address=orders.request`), 403);
    expect((await admin<{ items: Expectation[] }>('GET', base())).json.items.map((row) => row.version)).toEqual([4]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Correlations written as the correlator's worker writes them.

const NOW = Date.now();
const NODE = randomUUID();

function correlation(
  fields: Pick<Correlation, 'key' | 'address' | 'state'> & Partial<Correlation> & { readonly ago: number },
): Correlation {
  const { ago, ...given } = fields;
  const requestAt = NOW - ago;
  const latencyMs = given.latencyMs ?? null;
  return {
    replyAddress: 'orders.reply',
    pattern: 'shared-reply',
    correlationId: given.key,
    messageId: `m-${given.key}`,
    nodeId: NODE,
    feed: 'capture',
    requestAt,
    replyAt: latencyMs === null ? null : requestAt + latencyMs,
    latencyMs,
    clock: 'message',
    deadlineAt: requestAt + 5_000,
    deadlineSource: 'expectation',
    stateAt: requestAt + (latencyMs ?? 5_000),
    headers: {},
    brokerMessageId: null,
    note: null,
    ...given,
  };
}

async function write(clusterId: string, correlations: readonly Correlation[]) {
  writer.offer(clusterId, correlations);
  await writer.flush();
  expect(writerLog).toEqual([]);
}

/** percentile_cont as PostgreSQL defines it (linear interpolation between the closest ranks), rounded as rr shows it. */
function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const position = fraction * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = sorted[lower] ?? 0;
  const high = sorted[upper] ?? 0;
  return Math.round(low + (high - low) * (position - lower));
}

interface FlowSummary {
  address: string;
  requests: number;
  states: Record<RrState, number>;
  timedOutShare: number | null;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  lastRequestAt: string | null;
  expectation: Expectation | null;
  feed: { mode: 'capture' | 'sample'; notice: string | null };
}
interface CorrelationView {
  address: string;
  state: RrState;
  pattern: string;
  correlationId: string | null;
  messageId: string | null;
  latencyMs: number | null;
  headers: Record<string, unknown> | null;
  note: string | null;
}

const ORDERS_LATENCIES = [100, 200, 300, 400, 500, 600, 700, 800, 900, 1_000];
const BILLING_LATENCIES = [40, 50, 60];

describe('reads', () => {
  const path = (rest: string) => `/clusters/${clusters.reads}/rr/${rest}`;
  const flows = async (query = '') => {
    const answer = await admin<{ items: FlowSummary[]; total: number; page: number; pageSize: number }>(
      'GET',
      path(`flows${query}`),
    );
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    return answer.json;
  };
  const correlations = async (query = '') => {
    const answer = await admin<{ items: CorrelationView[]; total: number }>('GET', path(`correlations${query}`));
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    return answer.json;
  };
  const trace = async (id: string) => {
    const answer = await admin<{ items: CorrelationView[] }>(
      'GET',
      path(`trace?correlationId=${encodeURIComponent(id)}`),
    );
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    return answer.json.items;
  };

  beforeAll(async () => {
    const orders: Correlation[] = [
      ...ORDERS_LATENCIES.map((latencyMs, i) =>
        correlation({
          key: `o-c-${i}`,
          address: 'orders.request',
          state: 'COMPLETED',
          latencyMs,
          ago: 40 * 60_000 - i * 60_000,
        }),
      ),
      correlation({
        key: 'o-t-card',
        address: 'orders.request',
        state: 'TIMED_OUT',
        ago: 20 * 60_000,
        headers: { cardNumber: CARD, orderId: '7731' },
        note: 'No reply by the deadline.',
      }),
      correlation({
        key: 'o-t-2',
        address: 'orders.request',
        state: 'TIMED_OUT',
        ago: 19 * 60_000,
        headers: { orderId: '7732' },
      }),
      correlation({ key: 'o-d-1', address: 'orders.request', state: 'RESPONDER_DROPPED', ago: 18 * 60_000 }),
      correlation({ key: 'o-w-1', address: 'orders.request', state: 'AWAITING_REPLY', ago: 2_000 }),
      // Two hours ago: outside the default window (1h), inside 6h.
      correlation({
        key: 'o-old',
        address: 'orders.request',
        state: 'COMPLETED',
        latencyMs: 90_000,
        ago: 2 * 3_600_000,
      }),
    ];
    // Over temporary reply queues, keyed by the request's message id (the replies carry it as correlation id).
    const billing: Correlation[] = [
      ...BILLING_LATENCIES.map((latencyMs, i) =>
        correlation({
          key: `b-msg-${i}`,
          address: 'billing.request',
          replyAddress: `temp-${i}`,
          pattern: 'temporary-queue',
          correlationId: null,
          messageId: `b-msg-${i}`,
          state: 'COMPLETED',
          latencyMs,
          feed: 'sample',
          ago: 30 * 60_000 - i * 60_000,
        }),
      ),
      correlation({
        key: 'b-msg-orphaned',
        address: 'billing.request',
        replyAddress: 'temp-o',
        pattern: 'temporary-queue',
        correlationId: null,
        messageId: 'b-msg-orphaned',
        state: 'ORPHANED',
        feed: 'sample',
        ago: 10 * 60_000,
      }),
      correlation({
        key: 'b-msg-late',
        address: 'billing.request',
        replyAddress: 'temp-l',
        pattern: 'temporary-queue',
        correlationId: null,
        messageId: 'b-msg-late',
        state: 'TIMED_OUT',
        feed: 'sample',
        ago: 9 * 60_000,
      }),
    ];
    const stray = correlation({
      key: 'stray-1',
      address: 'orders.reply',
      replyAddress: 'orders.reply',
      state: 'ORPHANED_REPLY',
      ago: 5 * 60_000,
      deadlineAt: null,
      deadlineSource: null,
      note: 'A reply whose correlation id matches no request seen on this cluster.',
    });
    await write(clusters.reads, [...orders, ...billing, stray]);
    expect(signals).toContainEqual(['rr', clusters.reads]);
    // A declared address with no traffic is a flow too.
    const declared = await admin('PUT', path('expectations'), {
      address: 'quiet.request',
      expectedLatencyMs: 100,
      deadlineMs: 2_000,
    });
    expect(declared.status, JSON.stringify(declared.json)).toBe(200);
  });

  it('lists the flows with their counts per state, percentiles and timed-out share, sampled while sql captures nothing', async () => {
    const listed = await flows();
    expect(listed.total).toBe(4);
    expect(listed.items.map((flow) => [flow.address, flow.requests])).toEqual([
      ['orders.request', 14],
      ['billing.request', 5],
      ['orders.reply', 0],
      ['quiet.request', 0],
    ]);
    const [orders, billing, reply, quiet] = listed.items;
    expect(orders?.states).toEqual({
      AWAITING_REPLY: 1,
      COMPLETED: 10,
      TIMED_OUT: 2,
      ORPHANED: 0,
      RESPONDER_DROPPED: 1,
      ORPHANED_REPLY: 0,
    });
    expect(orders).toMatchObject({
      p50: percentile(ORDERS_LATENCIES, 0.5),
      p95: percentile(ORDERS_LATENCIES, 0.95),
      p99: percentile(ORDERS_LATENCIES, 0.99),
      expectation: null,
    });
    expect([orders?.p50, orders?.p95, orders?.p99]).toEqual([550, 955, 991]);
    expect(orders?.timedOutShare).toBeCloseTo(2 / 13, 10);
    expect(orders?.lastRequestAt).toBe(new Date(NOW - 2_000).toISOString());
    expect(billing?.states).toMatchObject({ COMPLETED: 3, ORPHANED: 1, TIMED_OUT: 1 });
    expect([billing?.p50, billing?.p95, billing?.p99]).toEqual([50, 59, 60]);
    expect(billing?.timedOutShare).toBeCloseTo(1 / 5, 10);
    expect(reply).toMatchObject({ requests: 0, timedOutShare: null, p50: null, p95: null, p99: null });
    expect(reply?.states.ORPHANED_REPLY).toBe(1);
    expect(quiet).toMatchObject({
      requests: 0,
      lastRequestAt: null,
      expectation: { address: 'quiet.request', expectedLatencyMs: 100, deadlineMs: 2_000, version: 1 },
    });
    // Nothing is captured by the sql module: every flow is sampled and says what it may miss.
    for (const flow of listed.items) {
      expect(flow.feed.mode).toBe('sample');
      expect(flow.feed.notice).toMatch(/^Sampled: /);
    }

    // Captured by sql: that flow is fed by its tap and needs no notice.
    await secured.runtime.prisma.sqlSubscription.create({
      data: {
        id: randomUUID(),
        clusterId: clusters.reads,
        address: 'orders.request',
        mode: 'CAPTURE',
        state: 'ACTIVE',
      },
    });
    const captured = await flows();
    expect(captured.items.map((flow) => [flow.address, flow.feed.mode])).toEqual([
      ['orders.request', 'capture'],
      ['billing.request', 'sample'],
      ['orders.reply', 'sample'],
      ['quiet.request', 'sample'],
    ]);
    expect(captured.items[0]?.feed.notice).toBeNull();
  });

  it('sorts, filters, pages and widens the window', async () => {
    const addresses = async (query: string) => (await flows(query)).items.map((flow) => flow.address);
    expect(await addresses('?sort=address')).toEqual([
      'billing.request',
      'orders.reply',
      'orders.request',
      'quiet.request',
    ]);
    expect(await addresses('?sort=-address')).toEqual([
      'quiet.request',
      'orders.request',
      'orders.reply',
      'billing.request',
    ]);
    // Without a value (no completed pair, or nothing settled) a flow sorts last either way.
    expect(await addresses('?sort=-p95')).toEqual([
      'orders.request',
      'billing.request',
      'orders.reply',
      'quiet.request',
    ]);
    expect(await addresses('?sort=p95')).toEqual([
      'billing.request',
      'orders.request',
      'orders.reply',
      'quiet.request',
    ]);
    expect(await addresses('?sort=-timedOutShare')).toEqual([
      'billing.request',
      'orders.request',
      'orders.reply',
      'quiet.request',
    ]);
    expect(await addresses('?sort=requests')).toEqual([
      'orders.reply',
      'quiet.request',
      'billing.request',
      'orders.request',
    ]);
    expect(await addresses('?q=ORDERS')).toEqual(['orders.request', 'orders.reply']);
    const page = await flows('?sort=address&page=2&pageSize=3');
    expect(page).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(page.items.map((flow) => flow.address)).toEqual(['quiet.request']);
    expectProblem(await admin('GET', path('flows?sort=latency')), 400);
    expectProblem(await admin('GET', path('flows?window=2h')), 400);

    const wide = await flows('?window=6h');
    const orders = wide.items.find((flow) => flow.address === 'orders.request');
    expect(orders?.requests).toBe(15);
    expect(orders?.states.COMPLETED).toBe(11);
    expect(orders?.p99).toBe(percentile([...ORDERS_LATENCIES, 90_000], 0.99));
    // The last quarter of an hour: orders' waiting request; billing's ORPHANED and TIMED_OUT ones.
    const narrow = await flows('?window=15m');
    expect(narrow.items.map((flow) => [flow.address, flow.requests])).toEqual([
      ['billing.request', 2],
      ['orders.request', 1],
      ['orders.reply', 0],
      ['quiet.request', 0],
    ]);
  });

  it('shows one flow over time, its buckets adding up to its totals', async () => {
    for (const [window, requests, completed] of [
      ['1h', 14, 10],
      ['6h', 15, 11],
    ] as const) {
      const answer = await admin<{
        summary: FlowSummary;
        bucketMs: number;
        series: Array<{ at: string; requests: number; replies: number; p50: number | null; p95: number | null }>;
      }>('GET', path(`flow?address=orders.request&window=${window}`));
      expect(answer.status, JSON.stringify(answer.json)).toBe(200);
      const { summary, series, bucketMs } = answer.json;
      expect(summary.requests).toBe(requests);
      expect(summary.states.COMPLETED).toBe(completed);
      expect(summary.feed.mode).toBe('capture');
      expect(series.reduce((sum, bucket) => sum + bucket.requests, 0)).toBe(summary.requests);
      expect(series.reduce((sum, bucket) => sum + bucket.replies, 0)).toBe(summary.states.COMPLETED);
      // Evenly spaced, oldest first.
      for (let i = 1; i < series.length; i += 1)
        expect(Date.parse(series[i]?.at ?? '') - Date.parse(series[i - 1]?.at ?? '')).toBe(bucketMs);
      // A bucket holding one completed pair has that pair's latency as every percentile.
      const withOne = series.filter((bucket) => bucket.replies === 1);
      expect(withOne.length).toBeGreaterThan(0);
      for (const bucket of withOne) expect(bucket.p50).toBe(bucket.p95);
    }
    const quiet = await admin<{ summary: FlowSummary; series: Array<{ requests: number }> }>(
      'GET',
      path('flow?address=quiet.request'),
    );
    expect(quiet.json.summary).toMatchObject({ requests: 0, expectation: { version: 1 } });
    expect(quiet.json.series.every((bucket) => bucket.requests === 0)).toBe(true);
    expectProblem(await admin('GET', path('flow')), 400);
  });

  it('lists the correlations that did not complete, by state, with the card number masked', async () => {
    const open = await correlations();
    expect(open.total).toBe(7);
    expect(open.items.every((row) => row.state !== 'COMPLETED')).toBe(true);
    expect(new Set(open.items.map((row) => row.state))).toEqual(
      new Set(['TIMED_OUT', 'RESPONDER_DROPPED', 'AWAITING_REPLY', 'ORPHANED', 'ORPHANED_REPLY']),
    );
    // Newest state first.
    const stateAts = open.items.map((row) => (row as unknown as { stateAt: string }).stateAt);
    expect(stateAts).toEqual([...stateAts].sort().reverse());

    const timedOut = await correlations('?state=TIMED_OUT&sort=requestAt');
    expect(timedOut.items.map((row) => [row.address, row.correlationId, row.messageId])).toEqual([
      ['orders.request', 'o-t-card', 'm-o-t-card'],
      ['orders.request', 'o-t-2', 'm-o-t-2'],
      ['billing.request', null, 'b-msg-late'],
    ]);
    const completed = await correlations('?state=COMPLETED');
    expect(completed.total).toBe(14);
    // A completed pair keeps no content.
    expect(completed.items.every((row) => row.headers === null && row.correlationId === null)).toBe(true);
    expect((await correlations('?address=orders.request')).total).toBe(4);
    expect((await correlations('?q=billing')).total).toBe(2);
    expect((await correlations('?address=orders.request&q=billing')).total).toBe(0);
    // q also finds a word of the note, and a whole correlation id (kept only as a hash: a part finds nothing).
    expect((await correlations('?address=orders.request&q=deadline')).items.map((row) => row.correlationId)).toEqual(
      expect.arrayContaining(['o-t-card']),
    );
    expect((await correlations('?q=o-t-card')).items.map((row) => row.correlationId)).toEqual(['o-t-card']);
    expect((await correlations('?q=o-t-car')).total).toBe(0);
    const paged = await correlations('?sort=requestAt&page=2&pageSize=5');
    expect(paged.total).toBe(7);
    expect(paged.items.map((row) => row.state)).toEqual(['ORPHANED_REPLY', 'AWAITING_REPLY']);
    expectProblem(await admin('GET', path('correlations?state=LOST')), 400);

    const card = timedOut.items[0];
    expect(card?.headers?.orderId).toBe('7731');
    expect(card?.headers?.cardNumber).toEqual(expect.stringMatching(/1111$/));
    expect(card?.headers?.cardNumber).not.toBe(CARD);
    expect(JSON.stringify(open)).not.toContain(CARD);
    expect(JSON.stringify(await trace('o-t-card'))).not.toContain(CARD);
    // Nor stored in clear: the row holds it masked, the original only sealed.
    const stored = await secured.runtime.db.pool.query<{ row: string; sealed: string | null }>(
      `SELECT row_to_json(rr_event)::text AS row, sealed_cipher AS sealed FROM rr_event WHERE cluster_id = $1`,
      [clusters.reads],
    );
    expect(stored.rows.length).toBe(21);
    for (const row of stored.rows) expect(row.row).not.toContain(CARD);
    expect(stored.rows.filter((row) => row.sealed !== null)).toHaveLength(6);
  });

  it('traces a request by its correlation id, or by its message id with or without ID:', async () => {
    expect(await trace('o-t-card')).toMatchObject([
      { address: 'orders.request', state: 'TIMED_OUT', note: 'No reply by the deadline.' },
    ]);
    expect(await trace('o-c-3')).toMatchObject([{ state: 'COMPLETED', latencyMs: 400, correlationId: null }]);
    const byMessageId = await trace('ID:b-msg-orphaned');
    expect(byMessageId).toMatchObject([
      { address: 'billing.request', pattern: 'temporary-queue', state: 'ORPHANED', messageId: 'b-msg-orphaned' },
    ]);
    expect(await trace('b-msg-orphaned')).toEqual(byMessageId);
    expect(await trace('ID:b-msg-1')).toMatchObject([{ state: 'COMPLETED', latencyMs: 50 }]);
    expect(await trace('nobody-sent-this')).toEqual([]);
    // A correlation id is found only on its own cluster.
    const elsewhere = await admin<{ items: unknown[] }>(
      'GET',
      `/clusters/${clusters.states}/rr/trace?correlationId=o-t-card`,
    );
    expect(elsewhere.json.items).toEqual([]);
    expectProblem(await admin('GET', path('trace')), 400);
  });

  it('lets a viewer read flows and correlations, the card still masked', async () => {
    const listed = await viewer<{ items: FlowSummary[] }>('GET', path('flows'));
    expect(listed.status).toBe(200);
    expect(listed.json.items).toHaveLength(4);
    const open = await viewer('GET', path('correlations?state=TIMED_OUT'));
    expect(open.status).toBe(200);
    expect(JSON.stringify(open.json)).not.toContain(CARD);
  });
});

describe('a correlation’s state in the store', () => {
  const stateOf = async (key: string) => {
    const answer = await admin<{ items: CorrelationView[] }>(
      'GET',
      `/clusters/${clusters.states}/rr/trace?correlationId=${key}`,
    );
    expect(answer.json.items).toHaveLength(1);
    return answer.json.items[0];
  };

  it('moves an AWAITING_REPLY row to its final state', async () => {
    await write(clusters.states, [
      correlation({ key: 's-1', address: 'orders.request', state: 'AWAITING_REPLY', ago: 60_000 }),
    ]);
    expect(await stateOf('s-1')).toMatchObject({ state: 'AWAITING_REPLY', latencyMs: null, headers: null });
    await write(clusters.states, [
      correlation({
        key: 's-1',
        address: 'orders.request',
        state: 'TIMED_OUT',
        ago: 60_000,
        headers: { orderId: '1' },
        note: 'late',
      }),
    ]);
    expect(await stateOf('s-1')).toMatchObject({ state: 'TIMED_OUT', headers: { orderId: '1' }, note: 'late' });
    expect(await secured.runtime.prisma.rrEvent.count({ where: { clusterId: clusters.states } })).toBe(1);

    await write(clusters.states, [
      correlation({ key: 's-2', address: 'orders.request', state: 'AWAITING_REPLY', ago: 30_000 }),
    ]);
    await write(clusters.states, [
      correlation({ key: 's-2', address: 'orders.request', state: 'COMPLETED', latencyMs: 120, ago: 30_000 }),
    ]);
    expect(await stateOf('s-2')).toMatchObject({ state: 'COMPLETED', latencyMs: 120 });
  });

  it('never overwrites a final state, neither with a later AWAITING_REPLY nor with another final state', async () => {
    const before = await secured.runtime.prisma.rrEvent.findMany({
      where: { clusterId: clusters.states },
      orderBy: { keyHash: 'asc' },
    });
    await write(clusters.states, [
      correlation({ key: 's-1', address: 'orders.request', state: 'AWAITING_REPLY', ago: 1_000 }),
      correlation({ key: 's-2', address: 'orders.request', state: 'AWAITING_REPLY', ago: 1_000 }),
    ]);
    await write(clusters.states, [
      correlation({ key: 's-1', address: 'orders.request', state: 'COMPLETED', latencyMs: 5, ago: 1_000 }),
      correlation({ key: 's-2', address: 'orders.request', state: 'RESPONDER_DROPPED', ago: 1_000 }),
    ]);
    const after = await secured.runtime.prisma.rrEvent.findMany({
      where: { clusterId: clusters.states },
      orderBy: { keyHash: 'asc' },
    });
    expect(after).toEqual(before);
    expect(await stateOf('s-1')).toMatchObject({ state: 'TIMED_OUT' });
    expect(await stateOf('s-2')).toMatchObject({ state: 'COMPLETED', latencyMs: 120 });
  });

  it('writes a pair that completes within one flush as one row, its last state', async () => {
    writer.offer(clusters.states, [
      correlation({ key: 's-3', address: 'orders.request', state: 'AWAITING_REPLY', ago: 500 }),
    ]);
    writer.offer(clusters.states, [
      correlation({ key: 's-3', address: 'orders.request', state: 'COMPLETED', latencyMs: 42, ago: 500 }),
    ]);
    expect(writer.pendingCount).toBe(1);
    await writer.flush();
    expect(writerLog).toEqual([]);
    expect(await stateOf('s-3')).toMatchObject({ state: 'COMPLETED', latencyMs: 42 });
  });
});

describe('the rr.retention job', () => {
  it('deletes the correlations stored before now − events.retention and keeps the newer ones', async () => {
    const { prisma } = secured.runtime;
    await write(clusters.retention, [
      correlation({ key: 'r-old', address: 'orders.request', state: 'TIMED_OUT', ago: 60_000 }),
      correlation({ key: 'r-edge', address: 'orders.request', state: 'COMPLETED', latencyMs: 10, ago: 60_000 }),
      correlation({ key: 'r-new', address: 'orders.request', state: 'COMPLETED', latencyMs: 10, ago: 60_000 }),
    ]);
    const retentionMs = secured.runtime.settings.duration(EVENTS_SETTINGS.retention);
    // When a row was stored is what counts, not when its request was sent: one stored a minute before the cut, one a
    // minute after it.
    const storedAgo = async (key: string, ms: number) => {
      const { rowCount } = await secured.runtime.db.pool.query(
        `UPDATE rr_event SET stored_at = now() - make_interval(secs => $3::double precision / 1000)
          WHERE cluster_id = $1 AND key_hash = $2`,
        [clusters.retention, keyHashOf(clusters.retention, key), ms],
      );
      expect(rowCount).toBe(1);
    };
    await storedAgo('r-old', retentionMs + 60_000);
    await storedAgo('r-edge', retentionMs - 60_000);
    const elsewhere = await prisma.rrEvent.count({ where: { clusterId: { not: clusters.retention } } });

    const logged: string[] = [];
    const context: JobContext = {
      jobId: 'rr.retention',
      instanceId: 'test',
      signal: new AbortController().signal,
      settings: secured.runtime.settings,
      db: {
        execute: async (sql, params) => ({
          rowCount: (await secured.runtime.db.pool.query(sql, [...(params ?? [])])).rowCount ?? 0,
        }),
      },
      publishSignal: () => Promise.resolve(),
      log: (message) => logged.push(message),
    };
    const result = await runRetention(context);
    expect(result.summary).toMatch(/^1 correlations stored before /);
    const left = await prisma.rrEvent.findMany({ where: { clusterId: clusters.retention }, select: { keyHash: true } });
    expect(left.map((row) => row.keyHash).sort()).toEqual(
      ['r-edge', 'r-new'].map((key) => keyHashOf(clusters.retention, key)).sort(),
    );
    expect(await prisma.rrEvent.count({ where: { clusterId: { not: clusters.retention } } })).toBe(elsewhere);
    // Nothing left to delete: a second run deletes nothing.
    expect((await runRetention(context)).summary).toMatch(/^0 correlations/);
  });
});

describe('a removed cluster', () => {
  it('takes its expectations, their history and its correlations along, and no other cluster’s', async () => {
    const { prisma } = secured.runtime;
    const gone = await insertClusterRow(prisma, { name: 'rr-removed' });
    const body = { address: 'orders.request', expectedLatencyMs: 100, deadlineMs: 1_000, dryRun: false };
    expect((await admin('PUT', `/clusters/${gone}/rr/expectations`, body)).status).toBe(200);
    await write(gone, [correlation({ key: 'g-1', address: 'orders.request', state: 'TIMED_OUT', ago: 1_000 })]);
    const others = await prisma.rrEvent.count({ where: { clusterId: { not: gone } } });
    const removed = await admin('DELETE', `/clusters/${gone}`, { dryRun: false });
    expect(removed.status, JSON.stringify(removed.json)).toBe(200);
    expect(await prisma.rrExpectation.count({ where: { clusterId: gone } })).toBe(0);
    expect(await prisma.rrExpectationRevision.count({ where: { clusterId: gone } })).toBe(0);
    expect(await prisma.rrEvent.count({ where: { clusterId: gone } })).toBe(0);
    expect(await prisma.rrEvent.count({ where: { clusterId: { not: gone } } })).toBe(others);
  });
});
