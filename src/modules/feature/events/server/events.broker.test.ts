// Broker events end to end on a real two-node cluster and a real PostgreSQL: a consumer attaching to and leaving a
// queue is stored with the node that emitted it, read over the API and carried by the stream; a reconnect with
// Last-Event-ID replays exactly what was missed; a tiny buffer counts what it drops; a second Flotilla instance on
// the same database does not store anything twice; and after a broker restart its events arrive again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type BrokerNode } from '@test/artemis/index.ts';
import { openTestRuntimes, startHaScenario, type HaScenario, type TestRuntimes } from '@test/worker-kit.ts';
import { attachAndLeave, createAnycastQueue, openConsumers, uniqueName, waitFor } from '@test/native-test-helpers.ts';
import { readEventsStream } from '@test/events-stream.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import type { RestCall } from '@test/rest-call.ts';
import type { WebRuntime } from '@/server/runtime/web-runtime.ts';

let scenario: HaScenario;
let secured: SecuredRuntime;
let web: WebRuntime;
let call: RestCall;
let second: TestRuntimes | undefined;
let nodes: [BrokerNode, BrokerNode];

interface EventView {
  seq: number;
  kind: string;
  queue: string | null;
  brokerName: string | null;
  nodeId: string;
  consumerId: string | null;
  properties: Record<string, { type: string; value: unknown }>;
}

interface EventPage {
  items: EventView[];
  total: number;
  dropped: number;
  oldestAt: string | null;
}

const eventsOf = async (query: string) =>
  (await call<EventPage>('GET', `/clusters/${scenario.clusterId}/events?${query}`)).json;

async function churnOf(queue: string, count = 2): Promise<EventView[]> {
  return waitFor(
    `${count} consumer events of ${queue}`,
    async () => {
      const page = await eventsOf(`queue=${encodeURIComponent(queue)}&kind=CONSUMER_CREATED,CONSUMER_CLOSED&sort=seq`);
      return page.items.length >= count ? page.items : undefined;
    },
    30_000,
  );
}

/** An SSE response of the events topic, read until `until` holds or the time is up. */
const readStream = (headers: Record<string, string>, until: (text: string) => boolean, timeoutMs = 15_000) =>
  readEventsStream(web, scenario.clusterId, headers, until, timeoutMs);

/** The `events` messages of an SSE text: id and data. */
function streamedEvents(text: string): Array<{ id: string; data: EventView }> {
  return text
    .split('\n\n')
    .filter((block) => block.includes('event: events'))
    .map((block) => ({
      id: /^id: (.*)$/m.exec(block)?.[1] ?? '',
      data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? '{}') as EventView,
    }));
}

beforeAll(async () => {
  const cluster = await startCluster();
  nodes = cluster.nodes as [BrokerNode, BrokerNode];
  scenario = await startHaScenario('events', cluster, 1_000);
  secured = await openSecuredRuntime({ databaseUrl: scenario.databaseUrl, instanceId: 'events-web' });
  ({ runtime: web } = secured);
  ({ call } = await secured.signedIn());
  // Both nodes serve and hold a subscription before the first test.
  await waitFor(
    'two established subscriptions',
    async () => {
      const rows = await web.prisma.clusterNodeSubscription.findMany({ where: { clusterId: scenario.clusterId } });
      return rows.filter((row) => row.state === 'established').length === 2 ? rows : undefined;
    },
    60_000,
  );
}, 180_000);

afterAll(async () => {
  await second?.close();
  await secured.close();
  await scenario.stop();
});

describe('broker events on a real cluster', () => {
  it('stores a consumer attaching and leaving with the node that emitted it, and streams both', async () => {
    const queue = uniqueName('ev-churn');
    await createAnycastQueue(nodes[1], queue);
    const streamed = readStream({}, (text) =>
      streamedEvents(text).some((event) => event.data.kind === 'CONSUMER_CLOSED' && event.data.queue === queue),
    );
    await new Promise((resolve) => setTimeout(resolve, 300)); // the stream subscribes before the churn
    await attachAndLeave(nodes[1], queue);

    const [created, closed] = await churnOf(queue);
    expect(created).toMatchObject({ kind: 'CONSUMER_CREATED', queue, brokerName: nodes[1].name });
    expect(closed).toMatchObject({ kind: 'CONSUMER_CLOSED', queue, brokerName: nodes[1].name });
    expect(created?.consumerId).toBe(closed?.consumerId);
    expect(Object.keys(created?.properties ?? {}).length).toBeGreaterThan(0);

    const onStream = streamedEvents(await streamed).filter(
      (event) => event.data.queue === queue && event.data.kind.startsWith('CONSUMER_'),
    );
    expect(onStream.map((event) => [event.data.kind, event.data.brokerName])).toEqual([
      ['CONSUMER_CREATED', nodes[1].name],
      ['CONSUMER_CLOSED', nodes[1].name],
    ]);
    expect(onStream.map((event) => Number(event.id))).toEqual([created?.seq, closed?.seq]);
    // The churn drove the consumers signal (coalesced), which the consumer screens follow.
    await waitFor('a consumers signal', () => (scenario.signals.includes('consumers') ? true : undefined));
  });

  it('replays exactly the missed events to a client that reconnects with Last-Event-ID', async () => {
    const before = (await eventsOf('sort=-seq&pageSize=1')).items[0]?.seq ?? 0;
    const queue = uniqueName('ev-missed');
    await createAnycastQueue(nodes[0], queue);
    await attachAndLeave(nodes[0], queue);
    await attachAndLeave(nodes[0], queue);
    await churnOf(queue, 4);
    const missed = (await eventsOf(`sort=seq&pageSize=500`)).items.filter((event) => event.seq > before);
    const lastSeq = missed.at(-1)?.seq;

    const replayed = streamedEvents(
      await readStream({ 'Last-Event-ID': String(before) }, (text) => text.includes(`id: ${String(lastSeq)}\n`)),
    );
    expect(replayed.map((event) => Number(event.id))).toEqual(missed.map((event) => event.seq));
  });

  it('counts what a full buffer drops, and says so in the API', async () => {
    expect((await call('PUT', '/settings/events.buffer-size', { value: 1 })).status).toBe(200);
    try {
      const queue = uniqueName('ev-burst');
      await createAnycastQueue(nodes[0], queue);
      await new Promise((resolve) => setTimeout(resolve, 500)); // the worker hears the setting
      const burst = openConsumers(nodes[0], queue, 20);
      await new Promise((resolve) => setTimeout(resolve, 500));
      await burst.close();
      const page = await waitFor('dropped events', async () => {
        const found = await eventsOf('pageSize=1');
        return found.dropped > 0 ? found : undefined;
      });
      expect(page.dropped).toBeGreaterThan(0);
    } finally {
      await call('DELETE', '/settings/events.buffer-size');
    }
  });

  it('stores each event once with two Flotilla instances on one database', async () => {
    second = await openTestRuntimes(scenario.databaseUrl, [], 'events-second');
    const queue = uniqueName('ev-once');
    await createAnycastQueue(nodes[1], queue);
    await attachAndLeave(nodes[1], queue);
    const events = await churnOf(queue);
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // time for a duplicate to show up, if one would
    const again = (await eventsOf(`queue=${queue}&kind=CONSUMER_CREATED,CONSUMER_CLOSED`)).items;
    expect(again).toHaveLength(2);
    expect(new Set(again.map((event) => event.seq))).toEqual(new Set(events.map((event) => event.seq)));
  });

  it('hears a broker again after it restarts', async () => {
    await nodes[0].restart();
    const queue = uniqueName('ev-restart');
    await waitFor(
      'the restarted node’s events',
      async () => {
        await createAnycastQueue(nodes[0], queue).catch(() => undefined);
        await attachAndLeave(nodes[0], queue).catch(() => undefined);
        const page = await eventsOf(`queue=${queue}&kind=CONSUMER_CREATED`);
        return page.items.length > 0 ? page.items : undefined;
      },
      90_000,
    );
  });
});
