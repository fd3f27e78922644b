// Request-reply tracing on a real broker with real AMQP requesters and responders (test/support/rr-clients.ts), the
// real worker (scrape, notification subscription, sql capture, the rr correlator) and the REST API, set up as an
// operator would: an expectation declared over REST, the addresses captured over REST (or not: sampled). The same
// flows run captured and sampled and give the same states:
// - a responder that acknowledges and drops every n-th request: RESPONDER_DROPPED for exactly those, the rest COMPLETED
//   with the latency the requester measured (within 50 ms);
// - a slow responder past the expectation's deadline: TIMED_OUT;
// - a reply nobody asked for on the declared reply queue: ORPHANED_REPLY;
// - requests over temporary reply queues: COMPLETED; a requester killed with its temporary queue open: ORPHANED.
// Sampling sees only what stays on a queue (or with a consumer) for a browse: its flows hold their messages that long
// (slow responders, a requester that accepts replies late), and every sampled flow says what it may miss.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import { brokerMbean, jolokia } from '@test/jolokia.ts';
import { createAnycastQueue, waitFor } from '@test/native-test-helpers.ts';
import type { RestCall } from '@test/rest-call.ts';
import {
  rrBrokerOf,
  runRequester,
  runRequesterApart,
  sendOrphanReply,
  spawnRequesterProcess,
  startResponder,
  type RrBroker,
} from '@test/rr-clients.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { startHaScenario, type HaScenario } from '@test/worker-kit.ts';
import { Scheduler } from '@/modules/kernel/jobs/index.ts';

const lease = leaseSingleNode();
let node: BrokerNode;
let broker: RrBroker;
let scenario: HaScenario;
let secured: SecuredRuntime;
let call: RestCall;
let scheduler: Scheduler;

interface Correlation {
  state: string;
  pattern: string;
  feed: string;
  latencyMs: number | null;
  clock: string;
  note: string | null;
}
interface Flow {
  summary: { states: Record<string, number>; feed: { mode: string; notice: string | null } };
}

const DEADLINE_MS = 4_000;

async function flow(address: string): Promise<Flow> {
  const { status, json } = await call<Flow>(
    'GET',
    `/clusters/${scenario.clusterId}/rr/flow?address=${encodeURIComponent(address)}&window=15m`,
  );
  expect(status).toBe(200);
  return json;
}

async function trace(correlationId: string): Promise<Correlation | undefined> {
  const { json } = await call<{ items: Correlation[] }>(
    'GET',
    `/clusters/${scenario.clusterId}/rr/trace?correlationId=${encodeURIComponent(correlationId)}`,
  );
  return json.items[0];
}

/** Waits until every key has a final state and returns each one's correlation. */
async function settled(keys: readonly string[], timeoutMs = 30_000): Promise<Map<string, Correlation>> {
  const rows = async () => {
    const all = await secured.runtime.prisma.rrEvent.findMany({ where: { clusterId: scenario.clusterId } });
    return all.map((row) => `${row.address} ${row.state} ${row.feed} ${row.pattern} ${row.note ?? ''}`).join('\n');
  };
  return waitFor(
    `${keys.length} correlations settled`,
    async () => {
      const found = new Map<string, Correlation>();
      for (const key of keys) {
        const one = await trace(key);
        if (!one || one.state === 'AWAITING_REPLY') return undefined;
        found.set(key, one);
      }
      return found;
    },
    timeoutMs,
  ).catch(async (error: unknown) => {
    console.log(`keys ${keys.join(' ')}\n${await rows()}`);
    throw error;
  });
}

async function declare(address: string, replyAddress: string) {
  const { status } = await call('PUT', `/clusters/${scenario.clusterId}/rr/expectations`, {
    address,
    replyAddress,
    expectedLatencyMs: 500,
    deadlineMs: DEADLINE_MS,
  });
  expect(status).toBe(200);
}

async function capture(address: string) {
  const { status } = await call('POST', `/clusters/${scenario.clusterId}/sql/subscriptions`, {
    address,
    mode: 'CAPTURE',
  });
  expect(status).toBe(200);
}

interface Scene {
  readonly requests: string;
  readonly replies: string;
}

function sceneOf(word: string): Scene {
  return { requests: lease.name(`rr.${word}.requests`), replies: lease.name(`rr.${word}.replies`) };
}

const captured = sceneOf('captured');
const sampled = sceneOf('sampled');

beforeAll(async () => {
  node = lease.nodes[0] as BrokerNode;
  broker = rrBrokerOf(node);
  scenario = await startHaScenario('rr', lease, 1_000, {
    tierB: '1s',
    tierC: '1h',
    settings: {
      'sql.capture.reconcile-interval': '1s',
      'rr.sample.interval': '400ms',
      'rr.orphan-reply-grace': '1s',
    },
  });
  secured = await openSecuredRuntime({ databaseUrl: scenario.databaseUrl, instanceId: 'rr-web' });
  ({ call } = await secured.signedIn());
  for (const scene of [captured, sampled]) {
    await createAnycastQueue(node, scene.requests);
    await createAnycastQueue(node, scene.replies);
    await declare(scene.requests, scene.replies);
  }
  await waitFor(
    'the node subscribed',
    async () =>
      (await secured.runtime.prisma.clusterNodeSubscription.count({
        where: { clusterId: scenario.clusterId, state: 'established' },
      })) === 1 || undefined,
    60_000,
  );
  await capture(captured.requests);
  await capture(captured.replies);
  // The capture reconciler's job, scheduled as the worker process schedules it (the test worker runs no scheduler).
  const { worker } = scenario.runtimes;
  scheduler = new Scheduler({
    db: worker.db,
    bus: worker.bus,
    settings: worker.settings,
    instanceId: worker.instanceId,
    jobs: worker.registry.enabledJobs().filter((job) => job.id === 'sql.capture-reconcile'),
    firstRunDelayMs: 0,
  });
  await scheduler.start();
  await waitFor(
    'both capture taps active',
    async () =>
      (await secured.runtime.prisma.sqlSubscription.count({
        where: { clusterId: scenario.clusterId, state: 'ACTIVE' },
      })) === 2 || undefined,
    60_000,
  );
  // The correlator reads expectations and capture state every two seconds.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
}, 180_000);

afterAll(async () => {
  // Taps are named outside the lease's prefix: the reconciler removes them once their subscriptions are gone.
  const subscriptions = await secured.runtime.prisma.sqlSubscription.findMany({
    where: { clusterId: scenario.clusterId },
  });
  for (const { id } of subscriptions) await call('DELETE', `/clusters/${scenario.clusterId}/sql/subscriptions/${id}`);
  await waitFor(
    'the taps removed',
    async () => {
      const names = (await jolokia(node, {
        type: 'read',
        mbean: brokerMbean(node.name),
        attribute: 'QueueNames',
      })) as string[];
      return names.some((name) => name.startsWith('flotilla.capture.') && name.includes('.rr.captured.'))
        ? undefined
        : true;
    },
    20_000,
  ).catch(() => undefined);
  await scheduler.stop();
  await secured.close();
  await scenario.stop();
});

describe.each([
  { mode: 'capture', scene: captured, count: 20, dropEvery: 5, delayMs: 0, settleDelayMs: 0 },
  // Sampled: a responder that holds each request 1.2 s and a requester that holds each reply 2.4 s, so the browse
  // every 400 ms sees both. (A reply held 1.2 s went unseen once under a full run's load, counted RESPONDER_DROPPED;
  // the requester's hold costs the test nothing per request, its replies are accepted in the background.)
  { mode: 'sample', scene: sampled, count: 6, dropEvery: 3, delayMs: 1_200, settleDelayMs: 2_400 },
])('request-reply tracing, $mode', ({ mode, scene, count, dropEvery, delayMs, settleDelayMs }) => {
  it('gives RESPONDER_DROPPED for exactly the dropped requests and the measured latency for the rest', async () => {
    const responder = await startResponder(broker, { requestAddress: scene.requests, dropEvery, delayMs });
    // Apart: its latencies measured on an event loop this process (which hosts the worker) does not delay.
    const run = await runRequesterApart(broker, {
      requestAddress: scene.requests,
      replyAddress: scene.replies,
      count,
      timeoutMs: delayMs + 1_500,
      correlation: 'correlation-id',
      settleDelayMs,
    }).finally(() => responder.stop());
    expect(responder.dropped).toHaveLength(Math.floor(count / dropEvery));
    const states = await settled(run.pairs.map((pair) => pair.key));
    for (const pair of run.pairs) {
      const correlation = states.get(pair.key);
      if (responder.dropped.includes(pair.key)) {
        expect(correlation?.state, pair.key).toBe('RESPONDER_DROPPED');
        continue;
      }
      expect(correlation?.state, pair.key).toBe('COMPLETED');
      expect(correlation?.feed).toBe(mode);
      expect(pair.latencyMs).not.toBeNull();
      const traced = correlation?.latencyMs ?? -1_000;
      const measured = pair.latencyMs ?? 0;
      // The broker's timestamps lie inside the requester's window, so the traced latency is shorter by the
      // requester's own overhead: within 50 ms on a quiet machine, up to 60 ms seen on a loaded two-core CI run, and
      // 236 ms once in the sampled case when the requester's process waited for a core. The margin only has to tell
      // a right pairing from a wrong one: 150 ms when the requests follow each other at once (capture), half the
      // responder's hold when each waits for it (sample: a neighbour's reply is a whole hold away, and the traced
      // latency holds the responder's hold itself).
      const context = `${pair.key}: traced ${traced} ms, measured ${measured} ms`;
      const pairingMargin = delayMs > 0 ? delayMs / 2 : 150;
      expect(traced - measured, context).toBeLessThan(50);
      expect(measured - traced, context).toBeLessThan(pairingMargin);
      expect(traced, context).toBeGreaterThanOrEqual(delayMs - 5);
    }
    const summary = (await flow(scene.requests)).summary;
    // Each commit of new states is signalled on the cluster's `rr` stream topic.
    expect(scenario.signals).toContain('rr');
    expect(summary.feed.mode).toBe(mode);
    if (mode === 'sample') expect(summary.feed.notice).toMatch(/not seen/);
    else expect(summary.feed.notice).toBeNull();
  }, 120_000);

  it('gives TIMED_OUT for a request a slow responder still holds at the deadline', async () => {
    const responder = await startResponder(broker, { requestAddress: scene.requests, delayMs: DEADLINE_MS + 2_000 });
    try {
      const run = await runRequester(broker, {
        requestAddress: scene.requests,
        replyAddress: scene.replies,
        count: 1,
        timeoutMs: DEADLINE_MS + 500,
        correlation: 'correlation-id',
      });
      const [pair] = run.pairs;
      expect(pair?.latencyMs).toBeNull();
      const states = await settled([pair?.key ?? '']);
      expect(states.get(pair?.key ?? '')?.state).toBe('TIMED_OUT');
    } finally {
      await responder.stop().catch(() => undefined);
    }
  }, 60_000);

  it('gives ORPHANED_REPLY for a reply with no request on the declared reply queue', async () => {
    const correlationId = `orphan-${randomUUID()}`;
    await sendOrphanReply(broker, { replyAddress: scene.replies, correlationId });
    const states = await settled([correlationId]);
    expect(states.get(correlationId)).toMatchObject({ state: 'ORPHANED_REPLY', feed: mode });
  }, 60_000);

  it('follows temporary reply queues: COMPLETED with a responder, ORPHANED when the requester dies first', async () => {
    // The responder acknowledges a second after its reply: the requester has its last answer and removes its queue
    // while the request is still held (CI saw ORPHANED here when the acknowledgement came a moment late).
    const responder = await startResponder(broker, {
      requestAddress: scene.requests,
      delayMs,
      acceptAfterReplyMs: 1_000,
    });
    const run = await runRequester(broker, {
      requestAddress: scene.requests,
      count: 2,
      timeoutMs: delayMs + 3_000,
      correlation: 'message-id',
      // Sampled: the reply is held on its temporary queue, as on the declared one, for the browse to see it.
      settleDelayMs,
    }).finally(() => responder.stop());
    expect(run.pairs.every((pair) => pair.latencyMs !== null)).toBe(true);
    const completed = await settled(run.pairs.map((pair) => pair.key));
    for (const correlation of completed.values()) {
      expect(correlation).toMatchObject({ state: 'COMPLETED', pattern: 'temporary-queue' });
    }
    // No responder now: the request waits on its queue while the requester's process is killed.
    const requester = spawnRequesterProcess(broker, { requestAddress: scene.requests, count: 1 });
    const replyAddress = await requester.replyAddress;
    const before = (await flow(scene.requests)).summary.states.ORPHANED ?? 0;
    await waitFor(
      'the request seen waiting',
      async () => {
        const { json } = await call<{ items: Array<Correlation & { replyAddress: string }> }>(
          'GET',
          `/clusters/${scenario.clusterId}/rr/correlations?address=${encodeURIComponent(scene.requests)}&state=AWAITING_REPLY`,
        );
        return json.items.some((item) => item.replyAddress === replyAddress) || undefined;
      },
      20_000,
    );
    requester.kill();
    await waitFor(
      'the request orphaned',
      async () => ((await flow(scene.requests)).summary.states.ORPHANED === before + 1 ? true : undefined),
      20_000,
    );
    // Its request is still on the queue: a later responder would answer a requester that is gone.
    await startResponder(broker, { requestAddress: scene.requests }).then((drain) =>
      new Promise((resolve) => setTimeout(resolve, 1_000)).then(() => drain.stop()),
    );
  }, 90_000);
});
