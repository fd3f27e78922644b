// Consumer health on a real two-node cluster scraped by the real worker: real traffic makes each verdict appear
// (a queue nobody consumes, a paused one, one whose consumer holds messages without acknowledging, one whose only
// consumer's selector matches nothing, one fed faster than it is consumed, one drained slowly, one kept up with),
// the REST answer and the console's tRPC answer agree, a stopped node's cells stay (stale, totals kept), and the
// counter reset of its restart gives no negative rate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type BrokerNode } from '@test/artemis/index.ts';
import { startHaScenario, type HaScenario } from '@test/worker-kit.ts';
import { jolokiaExec } from '@test/jolokia.ts';
import {
  createAnycastQueue,
  endpointOf,
  openAckConsumer,
  sendDurableMessages,
  uniqueName,
  waitFor,
} from '@test/native-test-helpers.ts';
import { type AuthHeaders } from '@test/sign-in.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { appRouter } from '@/installation/app-router.ts';
import { createTrpcContext } from '@/server/http/context.ts';
import type { WebRuntime } from '@/server/runtime/web-runtime.ts';

const BASE = 'http://127.0.0.1/api/v1';
let scenario: HaScenario;
let secured: SecuredRuntime;
let web: WebRuntime;
let rest: (request: Request) => Promise<Response>;
let auth: AuthHeaders;
let node: BrokerNode;
const closers: Array<() => Promise<void> | void> = [];

const queues = {
  NO_CONSUMERS: uniqueName('ch.idle'),
  PAUSED: uniqueName('ch.paused'),
  STALLED: uniqueName('ch.stalled'),
  STARVED: uniqueName('ch.starved'),
  FALLING_BEHIND: uniqueName('ch.behind'),
  DRAINING: uniqueName('ch.draining'),
  HEALTHY: uniqueName('ch.healthy'),
} as const;

interface HealthItem {
  queueName: string;
  verdict: string;
  evidence: { consumers: number; delivering: number; depth: number; inRate: number | null; outRate: number | null };
  advice: string;
}

async function get<T>(path: string): Promise<T> {
  const response = await rest(new Request(`${BASE}${path}`, { headers: auth }));
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

const healthOverRest = () =>
  get<{ items: HealthItem[] }>(`/clusters/${scenario.clusterId}/consumer-health?pageSize=200&sort=queueName`);

async function healthOverTrpc(): Promise<HealthItem[]> {
  const request = new Request('http://127.0.0.1/api/trpc/metrics.consumerHealth', { headers: auth });
  const caller = appRouter.createCaller(await createTrpcContext(web, request));
  const answer = await caller.metrics.consumerHealth({ clusterId: scenario.clusterId, pageSize: 200 });
  return answer.items;
}

/** A consumer that accepts each message `delayMs` after it arrives, one at a time. */
function slowConsumer(queue: string, delayMs: number) {
  const consumer = openAckConsumer(endpointOf(node), {
    source: queue,
    credit: 1,
    onMessage: (_message, settlement) => setTimeout(() => settlement.accept(), delayMs),
  });
  closers.push(() => consumer.close());
}

/** Sends one message every `everyMs` until the test ends. */
function steadyProducer(queue: string, everyMs: number) {
  const state = { running: true };
  const loop = (async () => {
    while (state.running) {
      await sendDurableMessages(node, queue, 1).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  closers.push(async () => {
    state.running = false;
    await loop;
  });
}

beforeAll(async () => {
  const cluster = await startCluster();
  node = cluster.nodes[0] as BrokerNode;
  scenario = await startHaScenario('consumer-health', cluster, 1_000, { tierB: '1s', tierC: '2s' });
  secured = await openSecuredRuntime({ databaseUrl: scenario.databaseUrl, instanceId: 'health-web' });
  ({ runtime: web, rest } = secured);
  ({ auth } = await secured.signedIn());
  const setWindow = await rest(
    new Request(`${BASE}/settings/metrics.health-window`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ value: '1m' }),
    }),
  );
  expect(setWindow.status).toBe(200);

  for (const queue of Object.values(queues)) await createAnycastQueue(node, queue);
  for (const queue of [queues.NO_CONSUMERS, queues.PAUSED, queues.STALLED, queues.STARVED])
    await sendDurableMessages(node, queue, 5);
  // Enough to drain for longer than the test waits, so a slow machine still sees it shrinking.
  await sendDurableMessages(node, queues.DRAINING, 500);
  const queueMbean = (queue: string) =>
    `org.apache.activemq.artemis:broker="${node.name}",component=addresses,address="${queue}",subcomponent=queues,routing-type="anycast",queue="${queue}"`;
  await jolokiaExec(node, queueMbean(queues.PAUSED), 'pause()', []);

  // Holds five messages and never settles one.
  const holder = openAckConsumer(endpointOf(node), { source: queues.STALLED, credit: 5, onMessage: () => undefined });
  closers.push(() => holder.close());
  // Attached, but its selector matches none of the waiting messages.
  const picky = openAckConsumer(endpointOf(node), {
    source: queues.STARVED,
    selector: "flotilla_colour = 'never'",
    credit: 5,
    onMessage: () => undefined,
  });
  closers.push(() => picky.close());
  slowConsumer(queues.DRAINING, 400); // about 2.5 a second for over three minutes, nothing arriving
  steadyProducer(queues.FALLING_BEHIND, 100); // about 10 a second in…
  slowConsumer(queues.FALLING_BEHIND, 700); // …and under 1.5 out
  steadyProducer(queues.HEALTHY, 500);
  slowConsumer(queues.HEALTHY, 0);
}, 240_000);

afterAll(async () => {
  for (const close of closers) await close();
  await secured.close();
  await scenario.stop();
});

describe('consumer health on a real cluster', () => {
  it('gives each kind of traffic its verdict, the same over REST and tRPC', async () => {
    const expected = Object.entries(queues).map(([verdict, queueName]) => ({ queueName, verdict }));
    const mine = new Set<string>(Object.values(queues));
    // Each queue's verdict as it first appears (traffic takes its time: a slow machine drains and fills slower).
    const matched = new Map<string, HealthItem>();
    const lastSeen = new Map<string, string>();
    try {
      await waitFor(
        'every verdict from real traffic',
        async () => {
          const { items } = await healthOverRest();
          for (const item of items.filter((one) => mine.has(one.queueName))) {
            lastSeen.set(item.queueName, item.verdict);
            const wanted = expected.find((one) => one.queueName === item.queueName)?.verdict;
            if (item.verdict === wanted && !matched.has(item.queueName)) matched.set(item.queueName, item);
          }
          return matched.size === expected.length ? true : undefined;
        },
        150_000,
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}; last verdicts: ${JSON.stringify(Object.fromEntries(lastSeen))}`, {
        cause: error,
      });
    }
    // The same evaluation: the console's answer gives every queue the verdict the API gives (asked together; a
    // scrape sweep landing between the two answers may change a verdict, so they are asked again until they agree).
    await waitFor('REST and tRPC to agree', async () => {
      const [viaRest, viaTrpc] = await Promise.all([healthOverRest(), healthOverTrpc()]);
      const verdicts = (items: HealthItem[]) =>
        JSON.stringify(
          items
            .filter((item) => mine.has(item.queueName))
            .map((item) => [item.queueName, item.verdict])
            .sort(),
        );
      return verdicts(viaRest.items) === verdicts(viaTrpc) ? true : undefined;
    });

    expect(matched.get(queues.STALLED)?.evidence).toMatchObject({ consumers: 1, delivering: 5, outRate: 0 });
    expect(matched.get(queues.STARVED)?.evidence).toMatchObject({ consumers: 1, delivering: 0, depth: 5 });
    expect(matched.get(queues.NO_CONSUMERS)?.evidence).toMatchObject({ consumers: 0, depth: 5 });
    const behind = matched.get(queues.FALLING_BEHIND)?.evidence;
    expect(behind?.inRate).toBeGreaterThan(behind?.outRate ?? Infinity);
    for (const item of matched.values()) expect(item.advice.length).toBeGreaterThan(20);
  }, 240_000);

  it('stores the verdicts for the fleet: triage ranks the stalled queue first, the fleet names the worst', async () => {
    const triage = await waitFor(
      'the stalled queue in triage',
      async () => {
        const page = await get<{ items: Array<{ queueName: string; verdict: string; clusterName: string }> }>(
          '/triage',
        );
        return page.items.some((item) => item.queueName === queues.STALLED) ? page : undefined;
      },
      60_000,
    );
    const mine = new Set<string>(Object.values(queues));
    const ranked = triage.items.filter((item) => mine.has(item.queueName)).map((item) => item.verdict);
    expect(ranked[0]).toBe('STALLED');
    expect(ranked).not.toContain('HEALTHY');
    const fleet = await get<{ clusters: Array<{ id: string; health: string; verdicts: { worst: string } | null }> }>(
      '/fleet',
    );
    expect(fleet.clusters.find((cluster) => cluster.id === scenario.clusterId)).toMatchObject({
      health: 'UP',
      verdicts: { worst: 'STALLED' },
    });
  });

  it('keeps a stopped node’s cells, stale, with their totals; its restart gives no negative rate', async () => {
    for (const close of closers.splice(0)) await close();
    const gridRow = async () => {
      const page = await get<{
        items: Array<{ messageCount: number; stale: boolean; cells: Array<{ nodeId: string; stale: boolean }> }>;
      }>(`/clusters/${scenario.clusterId}/queues?q=${encodeURIComponent(queues.NO_CONSUMERS)}`);
      return page.items[0];
    };
    const before = await waitFor('the idle queue in the grid', gridRow);
    expect(before.messageCount).toBe(5);

    await node.stop();
    const stale = await waitFor(
      'the stopped node’s cell stale',
      async () => {
        const row = await gridRow();
        return row?.stale ? row : undefined;
      },
      60_000,
    );
    expect(stale.messageCount).toBe(5);
    expect(stale.cells.every((cell) => cell.stale)).toBe(true);

    await node.start();
    await node.waitUntilActive(60_000);
    // The restart reset the broker's counters; the scrape keeps sampling the busy queue after it.
    const series = await waitFor(
      'samples after the restart',
      async () => {
        const answer = await get<{
          nodes: Array<{ points: Array<{ t: string; inRate: number | null; outRate: number | null }> }>;
        }>(
          `/clusters/${scenario.clusterId}/metrics/queue?queue=${encodeURIComponent(queues.FALLING_BEHIND)}&last=600&points=1000`,
        );
        const row = await gridRow();
        return row && !row.stale ? answer : undefined;
      },
      90_000,
    );
    const rates = series.nodes.flatMap((one) => one.points.flatMap((point) => [point.inRate, point.outRate]));
    expect(rates.filter((rate) => rate !== null).length).toBeGreaterThan(5);
    expect(rates.filter((rate) => rate !== null && rate < 0)).toEqual([]);
    // The cluster's totals, sampled by the persist step at every listing, across the restart too.
    const cluster = await get<{ total: Array<{ depth: number; inRate: number | null; outRate: number | null }> }>(
      `/clusters/${scenario.clusterId}/metrics/cluster?last=600`,
    );
    expect(cluster.total.length).toBeGreaterThan(5);
    expect(Math.max(...cluster.total.map((point) => point.depth))).toBeGreaterThan(0);
    const totals = cluster.total.flatMap((point) => [point.inRate, point.outRate]).filter((rate) => rate !== null);
    expect(totals.filter((rate) => rate < 0)).toEqual([]);
  });
});
