// The fleet home's read on a real PostgreSQL at the scale: 50 clusters of two nodes, 2,000 queues each
// (200,000 cells, 100,000 queue totals) and a stored verdict for every queue, read as GET /api/v1/fleet reads it
// for an administrator (every cluster). Prints p50/p95 of 40 reads (target p95 < 300 ms) and the triage list's.
//   npm run bench:fleet        (PostgreSQL: FLOTILLA_TEST_ADMIN_URL, default postgres@127.0.0.1:5432)
import { randomUUID } from 'node:crypto';
import type { Database } from '../src/base/db/database.ts';
import { timesMs, withBenchDatabase } from './bench-support.ts';
import { reportFigure } from './report.ts';
import { inTransaction } from '../src/base/db/transaction.ts';
import { refreshQueueTotals } from '../src/modules/platform/scrape/server/queue-totals.ts';
import { readFleet } from '../src/modules/feature/triage/server/fleet.ts';
import { worstQueuesOf } from '../src/modules/feature/metrics/server/verdict-store.ts';
import { VERDICTS } from '../src/base/consumer-verdicts.ts';

const CLUSTERS = 50;
const QUEUES = 2_000;
const RUNS = 40;
const TARGET_MS = 300;
const ADMIN = [{ scope: { kind: 'GLOBAL' as const }, permissions: ['cluster:read', 'queue:read', 'metric:read'] }];

async function seedCluster(db: Database, index: number): Promise<string> {
  const clusterId = randomUUID();
  await db.query(
    `INSERT INTO cluster (id, name, username, password_cipher, password_key_id, updated_at)
     VALUES ($1, $2, 'bench', 'x', 'none', now())`,
    [clusterId, `cluster-${String(index).padStart(2, '0')}`],
  );
  for (const [node, brokerNodeId] of ['n1', 'n2'].entries()) {
    const nodeId = randomUUID();
    await db.query(
      `INSERT INTO cluster_node (id, cluster_id, management_url, broker_node_id, serving, last_success_at)
       VALUES ($1, $2, $3, $4, true, now())`,
      [nodeId, clusterId, `http://127.0.0.1:${20_000 + index * 2 + node}/console/jolokia`, brokerNodeId],
    );
    await db.query(
      `INSERT INTO queue_snapshot (cluster_id, node_id, address, queue_name, routing_type, message_count,
                                   consumer_count, delivering_count, messages_added, messages_acked,
                                   messages_expired, depth_rate, scraped_at, seen_in)
       SELECT $1, $2, 'address.' || i, CASE WHEN i % 500 = 0 THEN 'DLQ.' || i ELSE 'queue.' || i END, 'ANYCAST',
              (i * 7919) % 1000, i % 3, 0, i, 0, 0, ((i % 13) - 6) / 10.0, now(), 'C'
         FROM generate_series(1, $3) AS i`,
      [clusterId, nodeId, QUEUES],
    );
  }
  await inTransaction(db.pool, (client) => refreshQueueTotals(client, clusterId));
  await db.query(
    `INSERT INTO queue_verdict (cluster_id, address, queue_name, routing_type, verdict, severity, depth, depth_change,
                                in_rate, out_rate, consumers, delivering, evaluated_at)
     SELECT cluster_id, address, queue_name, routing_type, ($2::text[])[1 + (hashtext(queue_name) & 1023) % 9],
            (hashtext(queue_name) & 1023) % 9, message_count, depth_rate * 300, in_rate, out_rate, consumer_count,
            delivering_count, now()
       FROM queue_total WHERE cluster_id = $1`,
    [clusterId, VERDICTS],
  );
  return clusterId;
}

async function main(): Promise<void> {
  await withBenchDatabase('bench-fleet', async (db) => {
    const clusterIds: string[] = [];
    for (let index = 0; index < CLUSTERS; index++) clusterIds.push(await seedCluster(db, index));
    await db.query('ANALYZE');
    console.log(
      `${CLUSTERS} clusters × ${QUEUES.toLocaleString('en')} queues × 2 nodes (${(CLUSTERS * QUEUES * 2).toLocaleString('en')} cells, ${(CLUSTERS * QUEUES).toLocaleString('en')} totals and verdicts)`,
    );
    let answer: Awaited<ReturnType<typeof readFleet>> | undefined;
    const fleet = await timesMs(async () => (answer = await readFleet({ db }, ADMIN)), RUNS);
    console.log(
      `  fleet home        p95 ${fleet.p95.toFixed(1).padStart(7)} ms   median ${fleet.p50.toFixed(1).padStart(7)} ms`,
    );
    const triage = await timesMs(() => worstQueuesOf(db, clusterIds, { page: 1, pageSize: 50 }), RUNS);
    console.log(
      `  triage, page 1    p95 ${triage.p95.toFixed(1).padStart(7)} ms   median ${triage.p50.toFixed(1).padStart(7)} ms`,
    );
    console.log(
      `  (answer: ${answer?.clusters.length ?? 0} clusters, backlog ${answer?.totals.backlog.toLocaleString('en') ?? '?'}, ${answer?.totals.needingAttention.toLocaleString('en') ?? '?'} queues needing attention)`,
    );
    console.log(
      `\nFleet home p95 ${fleet.p95.toFixed(1)} ms — ${fleet.p95 < TARGET_MS ? 'meets' : 'MISSES'} the ${TARGET_MS} ms target`,
    );
    const scale = `${CLUSTERS} clusters × ${QUEUES.toLocaleString('en')} queues × 2 nodes, stored verdicts`;
    reportFigure({
      id: 'fleet.home-p95',
      figure: `Fleet home (GET /api/v1/fleet), ${scale}, ${RUNS} reads`,
      target: `p95 < ${TARGET_MS} ms`,
      seen: `p95 ${fleet.p95.toFixed(1)} ms, median ${fleet.p50.toFixed(1)} ms`,
      holds: fleet.p95 < TARGET_MS,
    });
    reportFigure({
      id: 'fleet.triage-p95',
      figure: `Triage list, page 1 of 50, ${scale}, ${RUNS} reads`,
      target: '—',
      seen: `p95 ${triage.p95.toFixed(1)} ms, median ${triage.p50.toFixed(1)} ms`,
    });
  });
}

await main();
