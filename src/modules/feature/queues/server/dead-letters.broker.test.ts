// Dead letters on a real two-node cluster scraped by the real worker, each node behind a proxy that counts the
// management POSTs reaching it. An address setting (dlr.# → dead-letter address dlr.dead, expiry address expired, one
// delivery attempt) is put on both brokers and messages really die there (a consumer fails them). The grid marks
// dlr.dead, expired, DLQ and ExpiryQueue from the brokers' settings and not DLQ.decoy, a queue merely named like
// one; GET /dead-letters lists dlr.dead with its depth, oldest message and original addresses summed over both
// nodes, in one POST per node; a dry-run redrive of two queues counts in one POST per node, changes nothing and is
// audited as a dry run; over the bulk cap it is refused, and with override the messages of one original address land
// back on their queue. On the pool's leased cluster: every name above but the brokers' own DLQ and ExpiryQueue (and the
// decoy, DLQ.<prefix>decoy) is under the lease's prefix, the setting's match too, and the assertions look at its own
// queues (and those two).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerNode } from '@test/artemis/index.ts';
import { leaseCluster } from '@test/artemis/lease.ts';
import { startCountingProxy, type CountingProxy } from '@test/counting-proxy.ts';
import { startHaScenario, type HaScenario } from '@test/worker-kit.ts';
import { brokerMbean, jolokia } from '@test/jolokia.ts';
import { createAnycastQueue, endpointOf, messageCount, openAckConsumer, waitFor } from '@test/native-test-helpers.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import type { RestCall } from '@test/rest-call.ts';
import type { WebRuntime } from '@/server/runtime/web-runtime.ts';
import { parseSignal, publishSignal, STREAM_CHANNEL } from '@/modules/kernel/stream/index.ts';
import { forgetDeadLetterCounts } from './dead-letter-counts.ts';

// A pooled cluster shared with other suites: scenario.stop() removes the queues and the setting under the prefix.
const cluster = leaseCluster();
const DEAD = cluster.name('dlr.dead');
// Its own expiry queue stands in the dry run for the brokers' DLQ, which other suites' dead letters may reach; named
// outside dlr. so that the list searched for dlr. still holds dlr.dead alone.
const EXPIRED = cluster.name('expired');
const ORDERS = cluster.name('dlr.orders');
const PAYMENTS = cluster.name('dlr.payments');
// Named like a DLQ from its first letters, so the decoy still catches a rule by name prefix; outside the lease's prefix,
// so the suite removes it itself.
const DECOY = `DLQ.${cluster.prefix}decoy`;
const startedAt = Date.now();
let nodes: [BrokerNode, BrokerNode];
let proxies: [CountingProxy, CountingProxy];
let scenario: HaScenario;
let secured: SecuredRuntime;
let web: WebRuntime;
let call: RestCall;

interface GridRow {
  queueName: string;
  deadLetter: boolean;
  deadLetterKind: string | null;
  messageCount: number;
}
interface Grid {
  items: GridRow[];
  deadLetterSettings: { readAt: string | null; ok: boolean; error: string | null };
}
interface DeadLetterRow {
  clusterName: string;
  queueName: string;
  kind: string | null;
  liveCount: number | null;
  oldestMessageAt: string | null;
  originalAddresses: { address: string; count: number }[];
  originalAddressCount: number;
  complete: boolean;
}
interface Redrive {
  auditId: string;
  outcome: string;
  dryRun: boolean;
  affectedCount: number;
  appliedCount: number;
  nodes: { outcome: string; estimate: number | null }[];
  items: { queueName: string; originalAddress: string | null; estimate: number | null; redriven: number | null }[];
}

const onBoth = async (queue: string) => (await messageCount(nodes[0], queue)) + (await messageCount(nodes[1], queue));
const counts = async () => [
  await messageCount(nodes[0], DEAD),
  await messageCount(nodes[1], DEAD),
  await messageCount(nodes[0], ORDERS),
  await messageCount(nodes[1], ORDERS),
];
const redrive = (body: object) => call<Redrive>('POST', `/clusters/${scenario.clusterId}/dead-letters/redrive`, body);

/** Sends `count` messages to the address on the node (the address's own sendMessage, so each has a timestamp). */
async function send(node: BrokerNode, address: string, count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    await jolokia(node, {
      type: 'exec',
      mbean: `${brokerMbean(node.name)},component=addresses,address="${address}"`,
      operation: 'sendMessage(java.util.Map,int,java.lang.String,boolean,java.lang.String,java.lang.String)',
      arguments: [{}, 3, `${address} ${String(index)}`, true, node.user, node.password],
    });
  }
}

/** A consumer on every node fails each message of the address: one delivery attempt, so each dies. */
async function failEverything(address: string): Promise<void> {
  const consumers = nodes.map((node) =>
    openAckConsumer(endpointOf(node), { source: address, credit: 10, onMessage: (_message, settle) => settle.fail() }),
  );
  try {
    await waitFor(`every message of ${address} dead`, async () => ((await onBoth(address)) === 0 ? true : undefined));
  } finally {
    await Promise.all(consumers.map((consumer) => consumer.close()));
  }
}

beforeAll(async () => {
  nodes = cluster.nodes as [BrokerNode, BrokerNode];
  for (const node of nodes) {
    await jolokia(node, {
      type: 'exec',
      mbean: brokerMbean(node.name),
      operation: 'addAddressSettings(java.lang.String,java.lang.String)',
      arguments: [
        cluster.name('dlr.#'),
        JSON.stringify({ deadLetterAddress: DEAD, expiryAddress: EXPIRED, maxDeliveryAttempts: 1 }),
      ],
    });
    for (const queue of [ORDERS, PAYMENTS, DEAD, EXPIRED, DECOY]) await createAnycastQueue(node, queue);
  }
  await send(nodes[0], ORDERS, 2);
  await send(nodes[1], ORDERS, 1);
  await send(nodes[1], PAYMENTS, 1);
  await failEverything(ORDERS);
  await failEverything(PAYMENTS);
  expect(await onBoth(DEAD)).toBe(4);

  proxies = [await startCountingProxy(nodes[0].managementUrl), await startCountingProxy(nodes[1].managementUrl)];
  const proxied = nodes.map((node, index): BrokerNode =>
    Object.assign(Object.create(Object.getPrototypeOf(node) as object) as BrokerNode, node, {
      managementUrl: proxies[index]?.url ?? '',
    }),
  );
  scenario = await startHaScenario('dead-letters', { nodes: proxied, stop: () => cluster.stop() }, 1_000, {
    tierB: '1s',
    tierC: '3s',
  });
  secured = await openSecuredRuntime({ databaseUrl: scenario.databaseUrl, instanceId: 'dead-letters-web' });
  ({ runtime: web } = secured);
  ({ call } = await secured.signedIn());
  await waitFor(
    'dlr.dead marked from the settings, on both nodes',
    async () => {
      const { json } = await call<Grid>('GET', `/clusters/${scenario.clusterId}/queues?q=${DEAD}`);
      const row = json.items.find((item) => item.queueName === DEAD);
      return row?.deadLetter && row.messageCount === 4 ? true : undefined;
    },
    60_000,
  );
}, 240_000);

afterAll(async () => {
  await secured.close();
  for (const node of cluster.nodes)
    await jolokia(node, {
      type: 'exec',
      mbean: brokerMbean(node.name),
      operation: 'destroyQueue(java.lang.String,boolean,boolean)',
      arguments: [DECOY, true, true],
    }).catch(() => undefined);
  await scenario.stop();
  await Promise.all(proxies.map((proxy) => proxy.close()));
});

describe('dead letters on a real cluster', () => {
  it('marks the queues the address settings name, and not one merely named like a DLQ', async () => {
    const { status, json } = await call<Grid>(
      'GET',
      `/clusters/${scenario.clusterId}/queues?deadLetter=true&pageSize=100`,
    );
    expect(status).toBe(200);
    expect(json.deadLetterSettings).toMatchObject({ ok: true, error: null });
    expect(json.deadLetterSettings.readAt).not.toBeNull();
    // The shared brokers hold other suites' dead-letter queues too, under their own prefixes: this suite's and the
    // brokers' own.
    const ours = json.items.filter(
      (row) => row.queueName.startsWith(cluster.prefix) || ['DLQ', 'ExpiryQueue'].includes(row.queueName),
    );
    const kinds = Object.fromEntries(ours.map((row) => [row.queueName, row.deadLetterKind]));
    expect(kinds).toEqual({ DLQ: 'dead-letter', ExpiryQueue: 'expiry', [DEAD]: 'dead-letter', [EXPIRED]: 'expiry' });
    const decoy = await call<GridRow>('GET', `/clusters/${scenario.clusterId}/queues/${DECOY}`);
    expect(decoy.json).toMatchObject({ deadLetter: false, deadLetterKind: null });
  });

  it('lists the dead-letter queue with its depth, oldest message and original addresses, one POST per node', async () => {
    // The scrape reads the address settings on every tier-C tick; on a loaded machine one read through the counting
    // proxy can fail (a clean-clone run saw ECONNRESET) and stays the cluster's status until the next tick succeeds.
    await waitFor(
      'the last dead-letter settings read to succeed',
      async () => {
        const { json } = await call<{ unreadClusters: unknown[] }>('GET', `/dead-letters?q=${cluster.name('dlr.')}`);
        return json.unreadClusters.length === 0 || undefined;
      },
      30_000,
    );
    forgetDeadLetterCounts(undefined);
    proxies.forEach((proxy) => proxy.reset());
    const { status, json } = await call<{ items: DeadLetterRow[]; unreadClusters: unknown[]; nodeFailures: unknown[] }>(
      'GET',
      `/dead-letters?q=${cluster.name('dlr.')}`,
    );
    expect(status).toBe(200);
    expect(proxies.map((proxy) => proxy.count('countMessages'))).toEqual([1, 1]);
    expect(json.unreadClusters).toEqual([]);
    expect(json.nodeFailures).toEqual([]);
    expect(json.items).toHaveLength(1);
    const [row] = json.items;
    expect(row).toMatchObject({
      clusterName: 'dead-letters',
      queueName: DEAD,
      kind: 'dead-letter',
      liveCount: 4,
      complete: true,
      originalAddressCount: 2,
      originalAddresses: [
        { address: ORDERS, count: 3 },
        { address: PAYMENTS, count: 1 },
      ],
    });
    // The oldest message's own timestamp (the address's sendMessage gives each one).
    expect(Date.parse(row?.oldestMessageAt ?? '')).toBeGreaterThanOrEqual(startedAt - 1_000);
    expect(Date.parse(row?.oldestMessageAt ?? '')).toBeLessThanOrEqual(Date.now());
  });

  it('costs one POST per node however many viewers ask at once, until a queues signal of the cluster', async () => {
    type Page = { items: DeadLetterRow[]; fetchedAt: string };
    const list = () => call<Page>('GET', `/dead-letters?q=${cluster.name('dlr.')}`);
    // The worker's own `queues` signal (a depth it saw move) rightly ends the kept counts; a measurement that saw
    // one proves nothing and is taken again.
    let queueSignals = 0;
    const stopCounting = web.bus.listen(STREAM_CHANNEL, (payload) => {
      const signal = parseSignal(payload);
      if (signal?.topic === 'queues' && signal.clusterId === scenario.clusterId) queueSignals += 1;
    });
    try {
      let measured: { concurrent: number[]; later: number[]; pages: Page[]; again: Page } | undefined;
      for (let attempt = 0; attempt < 5 && !measured; attempt += 1) {
        const signalsBefore = queueSignals;
        forgetDeadLetterCounts(undefined);
        proxies.forEach((proxy) => proxy.reset());
        const viewers = await Promise.all(Array.from({ length: 10 }, list));
        const concurrent = proxies.map((proxy) => proxy.count('countMessages'));
        await new Promise((resolve) => setTimeout(resolve, 300));
        const again = await list();
        const later = proxies.map((proxy) => proxy.count('countMessages'));
        if (queueSignals === signalsBefore)
          measured = { concurrent, later, pages: viewers.map((viewer) => viewer.json), again: again.json };
      }
      if (!measured) throw new Error('every measurement saw a queues signal from the worker');
      expect(measured.concurrent).toEqual([1, 1]);
      expect(measured.later).toEqual([1, 1]);
      expect(measured.pages.every((page) => page.items[0]?.liveCount === 4)).toBe(true);
      // The kept answer says how old it is.
      expect(measured.again.items[0]?.liveCount).toBe(4);
      expect(Date.parse(measured.again.fetchedAt)).toBeLessThanOrEqual(Date.now() - 300);

      // A queues signal of the cluster (from any process) ends them: the next read asks the brokers again.
      await publishSignal(web.bus, 'queues', scenario.clusterId);
      await waitFor('a read that asks the brokers again', async () => {
        await list();
        return proxies.every((proxy) => proxy.count('countMessages') >= 2) ? true : undefined;
      });
    } finally {
      stopCounting();
    }
  });

  it('previews a redrive of two queues in one POST per node, changes nothing, and audits it as a dry run', async () => {
    const before = await counts();
    proxies.forEach((proxy) => proxy.reset());
    const { status, json } = await redrive({
      items: [{ queueName: DEAD, originalAddress: ORDERS }, { queueName: EXPIRED }],
      dryRun: true,
    });
    expect(status, JSON.stringify(json)).toBe(200);
    expect(proxies.map((proxy) => proxy.count('countMessages'))).toEqual([1, 1]);
    expect(json).toMatchObject({ outcome: 'WOULD_APPLY', dryRun: true, affectedCount: 3, appliedCount: 0 });
    expect(json.nodes.every((node) => node.outcome === 'WOULD_APPLY')).toBe(true);
    expect(json.items).toEqual([
      { queueName: DEAD, originalAddress: ORDERS, estimate: 3, redriven: null, errors: [] },
      { queueName: EXPIRED, originalAddress: null, estimate: 0, redriven: null, errors: [] },
    ]);
    expect(await counts()).toEqual(before);
    const audit = await web.prisma.auditEvent.findUniqueOrThrow({ where: { id: json.auditId } });
    expect(audit).toMatchObject({ action: 'dead-letter.redrive', dryRun: true, outcome: 'SUCCEEDED' });
  });

  it('refuses a redrive over the bulk cap, and with override sends one original address back to its queue', async () => {
    expect((await call('PUT', '/settings/safety.bulk-cap', { value: 2 })).status).toBe(200);
    try {
      await waitFor('the cap of 2 in effect', () => (web.settings.integer('safety.bulk-cap') === 2 ? true : undefined));
      const items = [{ queueName: DEAD, originalAddress: ORDERS }];
      const refused = await call<{ type: string; affectedCount: number; cap: number }>(
        'POST',
        `/clusters/${scenario.clusterId}/dead-letters/redrive`,
        { items },
      );
      expect(refused.status).toBe(422);
      expect(refused.json).toMatchObject({ affectedCount: 3, cap: 2 });
      expect(await onBoth(DEAD)).toBe(4);

      const done = await redrive({ items, override: true });
      expect(done.status, JSON.stringify(done.json)).toBe(200);
      expect(done.json).toMatchObject({ outcome: 'SUCCEEDED', appliedCount: 3 });
      expect(done.json.items).toEqual([
        { queueName: DEAD, originalAddress: ORDERS, estimate: 3, redriven: 3, errors: [] },
      ]);
      await waitFor('three messages back on dlr.orders', async () => ((await onBoth(ORDERS)) === 3 ? true : undefined));
      // The one that died on dlr.payments stays.
      expect(await onBoth(DEAD)).toBe(1);
    } finally {
      await call('DELETE', '/settings/safety.bulk-cap');
    }
  });

  it('refuses to redrive a queue that is not on a dead-letter address', async () => {
    const { status, json } = await redrive({ items: [{ queueName: DECOY }], dryRun: true });
    expect(status).toBe(400);
    expect(JSON.stringify(json)).toContain('not-a-dead-letter-queue');
  });
});
