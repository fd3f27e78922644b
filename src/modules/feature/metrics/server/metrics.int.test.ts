// A queue's metric series over the REST API on a real PostgreSQL: samples as the scrape writes them (a node whose
// broker restarted mid-range, so its counters went back to zero), read per node, downsampled to the points asked
// for, with rates from the counters that are right and never negative across the reset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { insertScrapedNode, insertScrapedQueues } from '@test/queue-rows.ts';
import { makeDayPartitions, rollUpSamples } from '@/modules/platform/scrape/index.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';

let secured: SecuredRuntime;
let auth: AuthHeaders;
let clusterId: string;
const start = new Date(Date.UTC(2026, 10, 24, 10, 0, 0));

interface Series {
  stepMs: number;
  nodes: Array<{
    brokerName: string;
    points: Array<{
      t: string;
      depth: number;
      consumers: number;
      inRate: number | null;
      outRate: number | null;
      killedRate: number | null;
    }>;
  }>;
}

async function get(path: string) {
  const response = await secured.rest(new Request(`http://127.0.0.1/api/v1${path}`, { headers: auth }));
  return { status: response.status, json: (await response.json()) as Series & { type?: string } };
}

beforeAll(async () => {
  secured = await openSecuredRuntime();
  auth = await signIn(secured.rest, 'http://127.0.0.1');
  const { prisma } = secured.runtime;
  // The day partitions of metric_sample the samples fall in (the scrape's maintenance job makes them in production).
  await makeDayPartitions((sql) => secured.runtime.db.query(sql), [start, new Date(start.getTime() + 86_400_000)]);
  clusterId = await insertClusterRow(prisma, { name: 'metrics' });
  for (const [name, brokerNodeId] of [
    ['m1', 'n1'],
    ['m2', 'n2'],
  ] as const) {
    const nodeId = await insertScrapedNode(prisma, {
      clusterId,
      brokerNodeId,
      brokerName: name,
      serving: true,
      sweptAt: start,
    });
    await insertScrapedQueues(prisma, { clusterId, nodeId, scrapedAt: start }, [
      { queueName: 'orders', messageCount: 0 },
    ]);
    const queue = await prisma.queueSnapshot.findFirstOrThrow({ where: { nodeId, queueName: 'orders' } });
    // 61 samples, one every 10 s for ten minutes. m1 takes in 10/s and acknowledges 5/s; its broker restarts at
    // minute 5, so its counters start again from zero. m2 takes in 2/s, acknowledges all, without a restart.
    const rows = Array.from({ length: 61 }, (_, i) => {
      const seconds = i * 10;
      const sinceStart = name === 'm1' && seconds >= 300 ? seconds - 300 : seconds;
      const added = name === 'm1' ? sinceStart * 10 : seconds * 2;
      const acked = name === 'm1' ? sinceStart * 5 : seconds * 2;
      return {
        queueId: queue.id,
        ts: new Date(start.getTime() + seconds * 1_000),
        messageCount: BigInt(added - acked),
        consumerCount: name === 'm1' ? 3 : 1,
        deliveringCount: 0n,
        messagesAdded: BigInt(added),
        messagesAcked: BigInt(acked),
        messagesExpired: 0n,
        // m2 dead-letters one message a second.
        messagesKilled: BigInt(name === 'm2' ? seconds : 0),
      };
    });
    await prisma.metricSample.createMany({ data: rows });
    // As the persist step rolls each sample into its minute (long ranges read the rollup).
    await rollUpSamples((sql, params) => secured.runtime.db.query(sql, params), [queue.id]);
  }
});

afterAll(() => secured.close());

describe('GET /clusters/{id}/metrics/queue', () => {
  it('answers a series per node with rates from the counters, never negative across a counter reset', async () => {
    const from = start.toISOString();
    const to = new Date(start.getTime() + 600_000).toISOString();
    const { status, json } = await get(
      `/clusters/${clusterId}/metrics/queue?queue=orders&from=${from}&to=${to}&points=10`,
    );
    expect(status).toBe(200);
    expect(json.stepMs).toBe(60_000);
    const [m1, m2] = ['m1', 'm2'].map((name) => json.nodes.find((node) => node.brokerName === name));
    expect(m1?.points.length).toBeLessThanOrEqual(11);
    const rates = (m1?.points ?? []).flatMap((point) => [point.inRate, point.outRate]).filter((rate) => rate !== null);
    expect(rates.length).toBeGreaterThan(10);
    expect(Math.min(...rates)).toBeGreaterThanOrEqual(0);
    // Away from the reset the rates are the traffic's.
    const early = m1?.points.find((point) => point.t === new Date(start.getTime() + 120_000).toISOString());
    expect(early?.inRate).toBeCloseTo(10, 5);
    expect(early?.outRate).toBeCloseTo(5, 5);
    expect(early?.consumers).toBe(3);
    expect(m2?.points.every((point) => point.inRate === null || Math.abs(point.inRate - 2) < 1e-9)).toBe(true);
    expect(m2?.points.every((point) => point.killedRate === null || Math.abs(point.killedRate - 1) < 1e-9)).toBe(true);
    expect(m2?.points.some((point) => point.killedRate !== null)).toBe(true);
    // The depth fell to zero at the restart and grew again.
    const reset = m1?.points.find((point) => point.t === new Date(start.getTime() + 300_000).toISOString());
    expect(reset?.depth).toBeLessThan(early?.depth ?? 0);
  });

  it('downsamples a long range to at most the points asked for', async () => {
    const from = new Date(start.getTime() - 6 * 86_400_000).toISOString();
    const to = new Date(start.getTime() + 86_400_000).toISOString();
    const { json } = await get(`/clusters/${clusterId}/metrics/queue?queue=orders&from=${from}&to=${to}&points=500`);
    expect(json.stepMs).toBe(Math.ceil((7 * 86_400_000) / 500));
    for (const node of json.nodes) expect(node.points.length).toBeLessThanOrEqual(500);
  });

  it('takes a step instead of a number of points, and refuses a step that makes over 1,000 buckets', async () => {
    const from = start.toISOString();
    const to = new Date(start.getTime() + 600_000).toISOString();
    const { status, json } = await get(
      `/clusters/${clusterId}/metrics/queue?queue=orders&from=${from}&to=${to}&step=120`,
    );
    expect(status).toBe(200);
    expect(json.stepMs).toBe(120_000);
    for (const node of json.nodes) expect(node.points.length).toBeLessThanOrEqual(6);
    const tooFine = await get(`/clusters/${clusterId}/metrics/queue?queue=orders&last=86400&step=10`);
    expect([tooFine.status, tooFine.json.type]).toEqual([400, 'validation-failed']);
  });

  it('refuses a range that ends before it starts, and hides an unknown cluster', async () => {
    const bad = await get(
      `/clusters/${clusterId}/metrics/queue?queue=orders&from=${start.toISOString()}&to=${new Date(start.getTime() - 1).toISOString()}`,
    );
    expect(bad.status).toBe(400);
    const unknown = await get('/clusters/3b0c6a1e-0000-4000-8000-000000000000/metrics/queue?queue=orders');
    expect(unknown.status).toBe(404);
  });
});

describe('GET /clusters/{id}/metrics/cluster', () => {
  it('answers the totals per node and for the cluster, downsampled, and one node when asked', async () => {
    const { prisma, db } = secured.runtime;
    const nodes = await prisma.clusterNode.findMany({ where: { clusterId }, orderBy: { brokerName: 'asc' } });
    // Node totals as the persist step samples them: m1 holds 100 then 300 messages, m2 always 50.
    for (const [index, node] of nodes.entries()) {
      for (const [offset, depth] of [
        [0, index === 0 ? 100 : 50],
        [30, index === 0 ? 300 : 50],
      ] as const) {
        await db.query(
          `INSERT INTO node_metric_sample (node_id, ts, cluster_id, queues, message_count, consumer_count,
                                           delivering_count, in_rate, out_rate)
           VALUES ($1, $2, $3, 4, $4, 2, 0, $5, 1)`,
          [node.id, new Date(start.getTime() + offset * 1_000), clusterId, depth, index === 0 ? 8 : 2],
        );
      }
    }
    const from = start.toISOString();
    const to = new Date(start.getTime() + 60_000).toISOString();
    const response = await secured.rest(
      new Request(`http://127.0.0.1/api/v1/clusters/${clusterId}/metrics/cluster?from=${from}&to=${to}&points=10`, {
        headers: auth,
      }),
    );
    expect(response.status).toBe(200);
    const json = (await response.json()) as {
      stepMs: number;
      nodes: Array<{ brokerName: string; points: Array<{ depth: number }> }>;
      total: Array<{ t: string; depth: number; queues: number; inRate: number; outRate: number }>;
    };
    expect(json.stepMs).toBe(6_000);
    expect(json.nodes.find((node) => node.brokerName === 'm1')?.points.map((point) => point.depth)).toEqual([100, 300]);
    expect(json.total.map((point) => [point.depth, point.queues, point.inRate, point.outRate])).toEqual([
      [150, 8, 10, 2],
      [350, 8, 10, 2],
    ]);
    const one = await secured.rest(
      new Request(
        `http://127.0.0.1/api/v1/clusters/${clusterId}/metrics/cluster?from=${from}&to=${to}&nodeId=${nodes[1]?.id ?? ''}`,
        { headers: auth },
      ),
    );
    const single = (await one.json()) as { nodes: Array<{ brokerName: string }> };
    expect(single.nodes.map((node) => node.brokerName)).toEqual(['m2']);
  });
});
