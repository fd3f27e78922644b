// Removing a cluster while the worker writes its rows (found in a clean-clone run: a 500 on removal, PostgreSQL's log
// naming a deadlock between the cascade into queue_snapshot and a scrape's node_metric_sample insert). The scrape's
// transaction is played by a plain connection doing what queue-persist does, in the order that made the cycle.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/base/db/database.ts';
import type { RequestContext } from '@/modules/kernel/core/index.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { createTestDatabase, queryDatabase, type TestDatabase } from '@test/database.ts';
import { eventually } from '@test/eventually.ts';
import { insertScrapedNode, insertScrapedQueues } from '@test/queue-rows.ts';
import { deleteCluster } from './cluster-commands.ts';

const request: RequestContext = {
  requestId: 'req-removal-race',
  actor: { name: 'alice', userId: null },
  sourceIp: null,
};
let database: TestDatabase;
let db: Database;

// PostgreSQL checks a lock wait for a deadlock once, deadlock_timeout after it began, and fails the waiter that finds
// the cycle. The removal's sessions check after 2.5 s (inside Prisma's 5 s transaction, leaving the retry time) and the
// scrape's after a minute, so the removal is the side failed however slowly a loaded machine lets the scrape join the
// cycle within those 2.5 s (with the default 1 s the removal once checked before the scrape had joined).
const REMOVAL_DEADLOCK_TIMEOUT = '2500ms';
const SCRAPE_DEADLOCK_TIMEOUT = '60s';

beforeAll(async () => {
  database = await createTestDatabase();
  await queryDatabase(
    database.url,
    `ALTER DATABASE "${new URL(database.url).pathname.slice(1)}" SET deadlock_timeout = '${REMOVAL_DEADLOCK_TIMEOUT}'`,
  );
  db = openDatabase(database.url, { poolSize: 4, applicationName: 'removal-race-test' });
});

afterAll(async () => {
  await (db as Database | undefined)?.close();
  await database.drop();
});

describe('removing a cluster the worker is writing', () => {
  it('goes through when PostgreSQL fails it to break a deadlock with a scrape, with one SUCCEEDED audit row', async () => {
    const clusterId = await insertClusterRow(db.prisma, { name: 'racing' });
    const scrapedAt = new Date();
    const nodeId = await insertScrapedNode(db.prisma, {
      clusterId,
      brokerNodeId: 'r1',
      brokerName: 'race-1',
      serving: true,
      sweptAt: scrapedAt,
    });
    await insertScrapedQueues(db.prisma, { clusterId, nodeId, scrapedAt }, [{ queueName: 'orders', messageCount: 3 }]);

    const scrape = new pg.Client({ connectionString: database.url, application_name: 'removal-race-scrape' });
    await scrape.connect();
    let removalSettled: Promise<unknown> | undefined;
    try {
      // The scrape's transaction has updated the node's queue rows…
      await scrape.query(`SET deadlock_timeout = '${SCRAPE_DEADLOCK_TIMEOUT}'`);
      await scrape.query('BEGIN');
      await scrape.query('UPDATE queue_snapshot SET message_count = message_count + 1 WHERE node_id = $1', [nodeId]);
      // …the removal locks the cluster row and waits for those rows in its cascade…
      const removal = deleteCluster(db.prisma, request, { clusterId, dryRun: false });
      removalSettled = removal.catch(() => undefined); // its failure is asserted below, not an unhandled rejection
      await eventually(
        'the removal waiting for the scrape’s rows',
        async () => {
          const { rows } = await scrape.query<{ waiting: number }>(
            `SELECT count(*)::int AS waiting FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
          );
          return (rows[0]?.waiting ?? 0) > 0 || undefined;
        },
        10_000,
        50,
      );
      // …and the scrape's node sample needs the cluster row (its foreign key): a cycle PostgreSQL breaks by failing
      // the removal, which waited first.
      await scrape.query(
        `INSERT INTO node_metric_sample (node_id, ts, cluster_id, queues, message_count, consumer_count, delivering_count)
         VALUES ($1, now(), $2, 1, 4, 0, 0)`,
        [nodeId, clusterId],
      );
      await scrape.query('COMMIT');
      await expect(removal).resolves.toEqual({ id: clusterId, dryRun: false, changed: ['removed'] });
    } finally {
      await scrape.end();
      // Settled before the pool closes, whatever failed first (the scrape's end releases its locks).
      await removalSettled;
    }
    expect(await db.prisma.cluster.count({ where: { id: clusterId } })).toBe(0);
    expect(await db.prisma.nodeMetricSample.count({ where: { clusterId } })).toBe(0);
    const audit = await db.prisma.auditEvent.findMany({ where: { action: 'cluster.remove', target: 'racing' } });
    expect(audit.map((row) => row.outcome)).toEqual(['SUCCEEDED']);
  });
});
