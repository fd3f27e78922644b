// A queue's 7-day metric series on a real PostgreSQL, downsampled to 500 points per node: two nodes with a sample
// every 10 s (120,960 samples in daily partitions, one counter reset on each node), read through readQueueSeries as
// the API does. Prints the p50/p95 of 21 reads (target: p95 < 100 ms).
//   npm run bench:metrics        (PostgreSQL: FLOTILLA_TEST_ADMIN_URL, default postgres@127.0.0.1:5432)
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../src/base/db/database.ts';
import { migrate } from '../src/base/db/migrate.ts';
import { makeDayPartitions, rollUpSamples } from '../src/modules/platform/scrape/index.ts';
import { readQueueSeries } from '../src/modules/platform/scrape/read/index.ts';
import { reportFigure } from './report.ts';

const ADMIN_URL = process.env.FLOTILLA_TEST_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const DAY_MS = 86_400_000;
const RUNS = 21;
const TARGET_MS = 100;

async function main(): Promise<void> {
  const name = `flotilla_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const db = openDatabase(url.toString(), { poolSize: 2, applicationName: 'bench-metrics' });
  try {
    await migrate(url.toString(), { log: () => undefined });
    const to = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    const from = new Date(to.getTime() - 7 * DAY_MS);
    await makeDayPartitions(
      (sql) => db.query(sql),
      Array.from({ length: 10 }, (_, day) => new Date(from.getTime() + (day - 1) * DAY_MS)),
    );
    const clusterId = randomUUID();
    await db.query(
      `INSERT INTO cluster (id, name, username, password_cipher, password_key_id, updated_at)
       VALUES ($1, 'bench', 'bench', 'x', 'none', now())`,
      [clusterId],
    );
    for (const [index, brokerName] of ['b1', 'b2'].entries()) {
      const nodeId = randomUUID();
      await db.query(
        `INSERT INTO cluster_node (id, cluster_id, management_url, broker_name, broker_node_id, serving)
         VALUES ($1, $2, $3, $4, $4, true)`,
        [nodeId, clusterId, `http://127.0.0.1:${19_000 + index}/console/jolokia`, brokerName],
      );
      const queue = await db.query<{ id: string }>(
        `INSERT INTO queue_snapshot (cluster_id, node_id, address, queue_name, routing_type, message_count, consumer_count,
                                     delivering_count, messages_added, messages_acked, messages_expired, scraped_at, seen_in)
         VALUES ($1, $2, 'orders', 'orders', 'ANYCAST', 0, 1, 0, 0, 0, 0, now(), 'C') RETURNING id`,
        [clusterId, nodeId],
      );
      // A sample every 10 s for seven days; the counters restart at day 3 (a broker restart).
      await db.query(
        `INSERT INTO metric_sample (queue_id, ts, message_count, consumer_count, delivering_count, messages_added,
                                    messages_acked, messages_expired)
         SELECT $1, $2::timestamptz + make_interval(secs => i * 10), (i % 500), 2, i % 7,
                CASE WHEN i < 25920 THEN i * 12 ELSE (i - 25920) * 12 END,
                CASE WHEN i < 25920 THEN i * 11 ELSE (i - 25920) * 11 END, 0
           FROM generate_series(0, 60479) AS i`,
        [queue[0]?.id, from],
      );
    }
    // The persist step rolls every sample into its minute as it writes it; here the seeded samples are rolled up.
    await rollUpSamples((sql, params) => db.query(sql, params));
    await db.query('ANALYZE metric_sample');
    await db.query('ANALYZE metric_minute');
    const times: number[] = [];
    let points = 0;
    for (let run = 0; run <= RUNS; run++) {
      const started = performance.now();
      const series = await readQueueSeries(db, { clusterId, queueName: 'orders', from, to, points: 500 });
      if (run > 0) times.push(performance.now() - started);
      points = series.nodes.reduce((sum, node) => sum + node.points.length, 0);
    }
    times.sort((a, b) => a - b);
    const at = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? Number.NaN;
    console.log(
      `7-day series of one queue on 2 nodes (120,960 samples) downsampled to ${points} points:` +
        ` p50 ${at(50).toFixed(1)} ms, p95 ${at(95).toFixed(1)} ms over ${RUNS} reads (target p95 < ${TARGET_MS} ms)`,
    );
    reportFigure({
      id: 'metrics.series-7d-p95',
      figure: `A queue's 7-day series on 2 nodes (120,960 samples) downsampled to 500 points per node, from the per-minute rollup, ${RUNS} reads`,
      target: `p95 < ${TARGET_MS} ms`,
      seen: `p50 ${at(50).toFixed(1)} ms, p95 ${at(95).toFixed(1)} ms`,
      holds: at(95) < TARGET_MS,
    });
  } finally {
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
