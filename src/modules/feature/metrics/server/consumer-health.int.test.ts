// Consumer health over the REST API on a real PostgreSQL, from rows as the scrape and the events module leave them:
// each queue gets its verdict from the ladder, the broker's CONSUMER_SLOW outranks the numbers, the verdict filter
// and counts agree, and the evaluation costs the same number of statements for 8 queues as for 80.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { insertScrapedNode, insertScrapedQueues, recountTotals } from '@test/queue-rows.ts';
import { makeDayPartitions, rollUpSamples } from '@/modules/platform/scrape/index.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';
import type { Database, PrismaClient } from '@/base/db/database.ts';
import { consumerHealthOf } from './consumer-health-read.ts';

let secured: SecuredRuntime;
let auth: AuthHeaders;
let clusterId: string;
let nodeId: string;
const now = Date.now();

interface Health {
  items: Array<{ queueName: string; verdict: string; evidence: { inRate: number | null; slowConsumer: unknown } }>;
  total: number;
  counts: Record<string, number>;
}

/** A sample every 10 s over the last five minutes, depth and counters as the traffic shape says. */
function traffic(depthAt: (s: number) => number, added: (s: number) => number, acked: (s: number) => number) {
  return Array.from({ length: 31 }, (_, i) => {
    const s = i * 10;
    return { ts: new Date(now - 300_000 + s * 1_000), depth: depthAt(s), added: added(s), acked: acked(s) };
  });
}

async function queueWith(
  name: string,
  snapshot: { messageCount: number; consumerCount: number; paused?: boolean; delivering?: number },
  samples: ReturnType<typeof traffic>,
) {
  const { prisma } = secured.runtime;
  await insertScrapedQueues(prisma, { clusterId, nodeId, scrapedAt: new Date(now) }, [
    {
      queueName: name,
      messageCount: snapshot.messageCount,
      consumerCount: snapshot.consumerCount,
      paused: snapshot.paused ?? false,
    },
  ]);
  const queue = await prisma.queueSnapshot.findFirstOrThrow({ where: { nodeId, queueName: name } });
  if (snapshot.delivering) {
    await prisma.queueSnapshot.update({
      where: { id: queue.id },
      data: { deliveringCount: BigInt(snapshot.delivering) },
    });
    await recountTotals(prisma, clusterId);
  }
  await prisma.metricSample.createMany({
    data: samples.map((sample) => ({
      queueId: queue.id,
      ts: sample.ts,
      messageCount: BigInt(sample.depth),
      consumerCount: snapshot.consumerCount,
      deliveringCount: BigInt(snapshot.delivering ?? 0),
      messagesAdded: BigInt(sample.added),
      messagesAcked: BigInt(sample.acked),
      messagesExpired: 0n,
    })),
  });
  // As the persist step rolls each sample into its minute.
  await rollUpSamples((sql, params) => secured.runtime.db.query(sql, params), [queue.id]);
}

async function health(query = ''): Promise<Health> {
  const response = await secured.rest(
    new Request(`http://127.0.0.1/api/v1/clusters/${clusterId}/consumer-health?pageSize=100${query}`, {
      headers: auth,
    }),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as Health;
}

beforeAll(async () => {
  secured = await openSecuredRuntime();
  auth = await signIn(secured.rest, 'http://127.0.0.1');
  const { prisma, db } = secured.runtime;
  // The day partitions of the samples and their rollup (the scrape's maintenance job makes them in production).
  await makeDayPartitions(
    (sql) => db.query(sql),
    [-1, 0, 1].map((offset) => new Date(now + offset * 86_400_000)),
  );
  clusterId = await insertClusterRow(prisma, { name: 'health' });
  nodeId = await insertScrapedNode(prisma, {
    clusterId,
    brokerNodeId: 'h1',
    brokerName: 'h1',
    serving: true,
    sweptAt: new Date(now),
  });
  await queueWith(
    'q-falling',
    { messageCount: 400, consumerCount: 2, delivering: 5 },
    traffic(
      (s) => 100 + s,
      (s) => 20 * s,
      (s) => 19 * s,
    ),
  );
  await queueWith(
    'q-draining',
    { messageCount: 100, consumerCount: 2, delivering: 5 },
    traffic(
      (s) => 400 - s,
      (s) => 5 * s,
      (s) => 6 * s,
    ),
  );
  await queueWith(
    'q-healthy',
    { messageCount: 3, consumerCount: 1, delivering: 1 },
    traffic(
      () => 3,
      (s) => 10 * s,
      (s) => 10 * s,
    ),
  );
  await queueWith(
    'q-none',
    { messageCount: 50, consumerCount: 0 },
    traffic(
      () => 50,
      () => 1000,
      () => 950,
    ),
  );
  await queueWith(
    'q-stalled',
    { messageCount: 80, consumerCount: 1, delivering: 10 },
    traffic(
      (s) => 50 + s / 10,
      (s) => s,
      () => 500,
    ),
  );
  await queueWith(
    'q-starved',
    { messageCount: 30, consumerCount: 1 },
    traffic(
      () => 30,
      () => 30,
      () => 0,
    ),
  );
  await queueWith(
    'q-paused',
    { messageCount: 70, consumerCount: 1, paused: true },
    traffic(
      () => 70,
      () => 70,
      () => 0,
    ),
  );
  await queueWith(
    'q-slow',
    { messageCount: 10, consumerCount: 1, delivering: 1 },
    traffic(
      () => 10,
      (s) => s,
      (s) => s,
    ),
  );
  await queueWith('q-new', { messageCount: 5, consumerCount: 1 }, []);
  // The broker flagged a slow consumer on q-slow a minute ago (as the events module stores it).
  await db.query(
    `INSERT INTO broker_event (cluster_id, node_id, logical_node, broker_name, kind, address, queue, consumer_id,
                               properties, broker_time, received_at)
     VALUES ($1, $2, 'h1', 'h1', 'CONSUMER_SLOW', 'q-slow', 'q-slow', '42', '{}', $3, $3)`,
    [clusterId, nodeId, new Date(now - 60_000)],
  );
});

afterAll(() => secured.close());

describe('GET /clusters/{id}/consumer-health', () => {
  it('gives each queue its verdict, the broker’s CONSUMER_SLOW first', async () => {
    const answer = await health();
    const verdicts = Object.fromEntries(answer.items.map((item) => [item.queueName, item.verdict]));
    expect(verdicts).toEqual({
      'q-slow': 'BROKER_SLOW',
      'q-stalled': 'STALLED',
      'q-starved': 'STARVED',
      'q-none': 'NO_CONSUMERS',
      'q-falling': 'FALLING_BEHIND',
      'q-paused': 'PAUSED',
      'q-new': 'INSUFFICIENT_DATA',
      'q-draining': 'DRAINING',
      'q-healthy': 'HEALTHY',
    });
    // Worst first.
    expect(answer.items.map((item) => item.queueName).slice(0, 3)).toEqual(['q-slow', 'q-stalled', 'q-starved']);
    expect(answer.items.find((item) => item.queueName === 'q-slow')?.evidence.slowConsumer).toMatchObject({
      consumerId: '42',
    });
    expect(answer.items.find((item) => item.queueName === 'q-falling')?.evidence.inRate).toBeCloseTo(20, 5);
  });

  it('filters by verdict, with the counts of every verdict beside', async () => {
    const answer = await health('&verdict=STALLED,STARVED');
    expect(answer.items.map((item) => item.queueName).sort()).toEqual(['q-stalled', 'q-starved']);
    expect(answer.counts).toMatchObject({ HEALTHY: 1, DRAINING: 1, BROKER_SLOW: 1 });
    expect(answer.total).toBe(2);
  });

  it('costs the same number of statements whatever the queue count', async () => {
    const count = async () => {
      let statements = 0;
      const { db, prisma, settings } = secured.runtime;
      const counting: Database = {
        ...db,
        query: (...args: Parameters<Database['query']>) => {
          statements += 1;
          return db.query(...args);
        },
        pool: new Proxy(db.pool, {
          get: (target, property, receiver): unknown =>
            property === 'query'
              ? (...args: unknown[]) => {
                  statements += 1;
                  return (target.query as (...a: unknown[]) => unknown)(...args);
                }
              : Reflect.get(target, property, receiver),
        }),
      };
      const countingPrisma = new Proxy(prisma, {
        get: (target, property, receiver): unknown =>
          property === 'scrapeSweep'
            ? {
                findMany: (...args: Parameters<PrismaClient['scrapeSweep']['findMany']>) => {
                  statements += 1;
                  return target.scrapeSweep.findMany(...args);
                },
              }
            : Reflect.get(target, property, receiver),
      });
      await consumerHealthOf({ db: counting, prisma: countingPrisma, settings }, clusterId);
      return statements;
    };
    const before = await count();
    for (let i = 0; i < 72; i++) {
      await queueWith(
        `q-more-${String(i)}`,
        { messageCount: i, consumerCount: 1 },
        traffic(
          () => i,
          (s) => s,
          (s) => s,
        ),
      );
    }
    expect(await count()).toBe(before);
    expect(before).toBeLessThanOrEqual(4);
  });
});
