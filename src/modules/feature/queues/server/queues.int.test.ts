// The queue grid over REST on real PostgreSQL, from rows as the scrape leaves them: a primary/backup pair counts
// once (the serving member's cell), a stale node keeps its numbers flagged, totals and nodesPresent/nodesTotal,
// q/sort/page, one queue, and the problems for an unknown queue, a bad sort and a disabled feature.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { insertScrapedNode, insertScrapedQueues } from '@test/queue-rows.ts';

interface Cell {
  nodeId: string;
  counted: boolean;
  stale: boolean;
  messageCount: number;
}
interface GridRow {
  queueName: string;
  messageCount: number;
  consumerCount: number;
  nodesPresent: number;
  nodesTotal: number;
  paused: boolean;
  stale: boolean;
  cells: Cell[];
}

/** A list, one queue or a problem, as the tests read them. */
interface Answer {
  readonly total?: number;
  readonly items: GridRow[];
  readonly type?: string;
  readonly [field: string]: unknown;
}

let secured: SecuredRuntime;
let headers: AuthHeaders;
const clusterId = randomUUID();
const nodes: Record<'deadPrimary' | 'servingBackup' | 'second' | 'staleThird', string> = {
  deadPrimary: '',
  servingBackup: '',
  second: '',
  staleThird: '',
};

async function get(path: string, rest = secured.rest, auth = headers) {
  const response = await rest(new Request(`http://127.0.0.1/api/v1${path}`, { headers: auth }));
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: (await response.json()) as Answer,
  };
}

beforeAll(async () => {
  secured = await openSecuredRuntime();
  headers = await signIn(secured.rest, 'http://127.0.0.1');
  const { prisma } = secured.runtime;
  await insertClusterRow(prisma, { id: clusterId, name: 'payments' });
  const now = Date.now();
  const fresh = new Date(now - 1_000);
  const old = new Date(now - 120_000);
  const node = (brokerNodeId: string, brokerName: string, serving: boolean, sweptAt: Date, backup = false) =>
    insertScrapedNode(prisma, {
      clusterId,
      brokerNodeId,
      brokerName,
      serving,
      sweptAt,
      role: backup ? 'BACKUP' : 'PRIMARY',
    });
  // n1 failed over: the dead primary's last numbers are old; its backup serves now.
  nodes.deadPrimary = await node('n1', 'primary-1', false, old);
  nodes.servingBackup = await node('n1', 'backup-1', true, fresh, true);
  nodes.second = await node('n2', 'primary-2', true, fresh);
  nodes.staleThird = await node('n3', 'primary-3', true, old);
  const queues = (nodeId: string, scrapedAt: Date, rows: Parameters<typeof insertScrapedQueues>[2]) =>
    insertScrapedQueues(prisma, { clusterId, nodeId, scrapedAt }, rows);
  await queues(nodes.deadPrimary, old, [{ queueName: 'orders', messageCount: 100, consumerCount: 9 }]);
  await queues(nodes.servingBackup, fresh, [{ queueName: 'orders', messageCount: 7, consumerCount: 1 }]);
  await queues(nodes.second, fresh, [
    { queueName: 'orders', messageCount: 3, consumerCount: 1 },
    { queueName: 'invoices', address: 'billing', messageCount: 50, paused: true },
    { queueName: 'orders/eu west', address: 'orders.eu', messageCount: 2 },
  ]);
  await queues(nodes.staleThird, old, [{ queueName: 'orders', messageCount: 1 }]);
}, 60_000);

afterAll(async () => {
  await secured.close();
});

describe('queue grid', () => {
  it('groups the cells of a queue, counting a primary/backup pair once and keeping a stale node flagged', async () => {
    const { status, body } = await get(`/clusters/${clusterId}/queues`);
    expect(status).toBe(200);
    expect(body.total).toBe(3);
    const orders = body.items.find((row) => row.queueName === 'orders');
    expect(orders).toMatchObject({ messageCount: 7 + 3 + 1, consumerCount: 2, nodesPresent: 3, nodesTotal: 3 });
    expect(orders?.stale).toBe(true);
    const cells = Object.fromEntries((orders?.cells ?? []).map((cell) => [cell.nodeId, cell]));
    expect(Object.keys(cells)).toHaveLength(4);
    expect(cells[nodes.deadPrimary]).toMatchObject({ counted: false, stale: true, messageCount: 100 });
    expect(cells[nodes.servingBackup]).toMatchObject({ counted: true, stale: false });
    expect(cells[nodes.staleThird]).toMatchObject({ counted: true, stale: true, messageCount: 1 });
  });

  it('marks a queue on one node only with its nodesPresent and its pause', async () => {
    const { body } = await get(`/clusters/${clusterId}/queues?q=INVOI`);
    expect(body.total).toBe(1);
    expect(body.items[0]).toMatchObject({
      queueName: 'invoices',
      nodesPresent: 1,
      nodesTotal: 3,
      paused: true,
      stale: false,
    });
  });

  it('searches addresses too, and takes the search text literally', async () => {
    expect((await get(`/clusters/${clusterId}/queues?q=bill`)).body.total).toBe(1);
    expect((await get(`/clusters/${clusterId}/queues?q=${encodeURIComponent('%')}`)).body.total).toBe(0);
  });

  it('sorts on the totals and pages', async () => {
    const byMessages = await get(`/clusters/${clusterId}/queues?sort=-messageCount`);
    expect(byMessages.body.items.map((row) => row.queueName)).toEqual(['invoices', 'orders', 'orders/eu west']);
    const second = await get(`/clusters/${clusterId}/queues?sort=queueName&page=2&pageSize=1`);
    expect(second.body).toMatchObject({ total: 3, page: 2, pageSize: 1 });
    expect(second.body.items.map((row) => row.queueName)).toEqual(['orders']);
    // Past the last page: no rows, and still the true total.
    const beyond = await get(`/clusters/${clusterId}/queues?page=9&pageSize=1`);
    expect(beyond.body).toMatchObject({ total: 3, items: [] });
  });

  it('answers one queue with its cells, and queue-not-found for a queue no node listed', async () => {
    const one = await get(`/clusters/${clusterId}/queues/orders`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ queueName: 'orders', messageCount: 11, nodesPresent: 3 });
    // A name with a slash or a space is one encoded path segment.
    const odd = await get(`/clusters/${clusterId}/queues/${encodeURIComponent('orders/eu west')}`);
    expect(odd.status).toBe(200);
    expect(odd.body).toMatchObject({ queueName: 'orders/eu west', nodesPresent: 1 });
    const missing = await get(`/clusters/${clusterId}/queues/nope`);
    expect(missing.status).toBe(404);
    expect(missing.type).toContain('application/problem+json');
    expect(missing.body).toMatchObject({ type: 'queue-not-found', title: 'Queue not found' });
  });

  it('refuses an unknown sort field, and answers an unknown cluster like an unauthorised one', async () => {
    const badSort = await get(`/clusters/${clusterId}/queues?sort=colour`);
    expect(badSort.status).toBe(400);
    expect(badSort.body.type).toBe('validation-failed');
    const unknown = await get(`/clusters/${randomUUID()}/queues`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.type).toBe('cluster-not-found');
  });

  it('carries each row’s stored consumer-health verdict and filters on it, naming an unknown verdict', async () => {
    const { db } = secured.runtime;
    await db.query(
      `INSERT INTO queue_verdict (cluster_id, address, queue_name, routing_type, verdict, severity, depth, consumers,
                                  delivering, evaluated_at)
       SELECT $1, address, queue_name, routing_type, CASE WHEN queue_name = 'orders' THEN 'STALLED' ELSE 'HEALTHY' END,
              0, 0, 0, 0, now()
         FROM queue_total WHERE cluster_id = $1`,
      [clusterId],
    );
    const stalled = await get(`/clusters/${clusterId}/queues?verdict=STALLED,STARVED`);
    expect(stalled.body.items.map((row) => [row.queueName, (row as unknown as { verdict: string }).verdict])).toEqual([
      ['orders', 'STALLED'],
    ]);
    const all = await get(`/clusters/${clusterId}/queues`);
    expect(all.body.items.every((row) => (row as unknown as { verdict: string | null }).verdict !== null)).toBe(true);
    const unknown = await get(`/clusters/${clusterId}/queues?verdict=SLEEPY`);
    expect([unknown.status, unknown.body.type]).toEqual([400, 'validation-failed']);
    expect(String(unknown.body.detail)).toContain('SLEEPY');
    await db.query('DELETE FROM queue_verdict WHERE cluster_id = $1', [clusterId]);
  });
});

describe('queue grid with the queues feature off', () => {
  it('answers feature-disabled naming the property, below the clusters module’s own paths', async () => {
    // Metrics (its panels live on the queue page), triage (which reads metrics), messages and alerting (its
    // consumer-health condition reads the queues' verdict source) need queues: off together.
    const off = await openSecuredRuntime({
      environment: {
        FLOTILLA_FEATURES_QUEUES_ENABLED: 'false',
        FLOTILLA_FEATURES_METRICS_ENABLED: 'false',
        FLOTILLA_FEATURES_TRIAGE_ENABLED: 'false',
        FLOTILLA_FEATURES_MESSAGES_ENABLED: 'false',
        FLOTILLA_FEATURES_ALERTING_ENABLED: 'false',
      },
    });
    try {
      const auth = await signIn(off.rest, 'http://127.0.0.1');
      const answer = await get(`/clusters/${randomUUID()}/queues`, off.rest, auth);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({
        type: 'feature-disabled',
        property: 'flotilla.features.queues.enabled',
      });
      // The clusters module's own paths still answer.
      expect((await get('/clusters', off.rest, auth)).status).toBe(200);
    } finally {
      await off.close();
    }
  });
});

describe('queue grid trends', () => {
  it('gives each row its last 15 minutes and its in/out rates over the serving nodes, a reset never negative', async () => {
    const { prisma, db } = secured.runtime;
    const now = Date.now();
    for (const offsetDays of [0, -1]) {
      const day = new Date(now + offsetDays * 86_400_000);
      const from = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()));
      const name = `metric_sample_p${from.toISOString().slice(0, 10).replaceAll('-', '')}`;
      await db.query(
        `CREATE TABLE IF NOT EXISTS ${name} PARTITION OF metric_sample FOR VALUES FROM ('${from.toISOString()}') TO ('${new Date(from.getTime() + 86_400_000).toISOString()}')`,
      );
    }
    // orders on the serving backup: 4/s in, 3/s out, its counters restarting five minutes ago; on the dead
    // primary (not serving) numbers that must not count; on primary-2: 1/s in and out.
    const sampleRows = async (nodeId: string, rate: (seconds: number) => { added: number; acked: number }) => {
      const queue = await prisma.queueSnapshot.findFirstOrThrow({ where: { nodeId, queueName: 'orders' } });
      await prisma.metricSample.createMany({
        data: Array.from({ length: 61 }, (_, i) => {
          const seconds = i * 10;
          const { added, acked } = rate(seconds);
          return {
            queueId: queue.id,
            ts: new Date(now - 600_000 + seconds * 1_000),
            messageCount: BigInt(added - acked),
            consumerCount: 1,
            deliveringCount: 0n,
            messagesAdded: BigInt(added),
            messagesAcked: BigInt(acked),
            messagesExpired: 0n,
          };
        }),
      });
    };
    await sampleRows(nodes.servingBackup, (seconds) => {
      const since = seconds >= 300 ? seconds - 300 : seconds;
      return { added: since * 4, acked: since * 3 };
    });
    await sampleRows(nodes.deadPrimary, (seconds) => ({ added: seconds * 1000, acked: 0 }));
    await sampleRows(nodes.second, (seconds) => ({ added: seconds, acked: seconds }));

    const { body } = await get(`/clusters/${clusterId}/queues?q=orders&sort=queueName`);
    const orders = body.items.find((row) => row.queueName === 'orders') as unknown as {
      inRate: number | null;
      outRate: number | null;
      trend: { depth: Array<number | null>; inRate: Array<number | null>; outRate: Array<number | null> } | null;
    };
    // The newest minute: 4/s on the serving backup + 1/s on primary-2, not the dead primary.
    expect(orders.trend?.inRate.at(-1)).toBeCloseTo(5, 5);
    expect(orders.trend?.outRate.at(-1)).toBeCloseTo(4, 5);
    expect(orders.trend?.depth).toHaveLength(15);
    const rates = [...(orders.trend?.inRate ?? []), ...(orders.trend?.outRate ?? [])].filter((rate) => rate !== null);
    expect(rates.length).toBeGreaterThan(10);
    expect(Math.min(...rates)).toBeGreaterThanOrEqual(0);
    // A queue without samples has no trend and no rates.
    const eu = body.items.find((row) => row.queueName === 'orders/eu west') as unknown as { trend: unknown };
    expect(eu).toMatchObject({ trend: null });
  });
});
