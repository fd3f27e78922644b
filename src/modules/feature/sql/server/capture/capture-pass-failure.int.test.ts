// A capture pass that cannot run on a real PostgreSQL: the cluster's stored password unreadable (sealed under a key
// this process does not have, as after a key rotation gone wrong). The pass is that cluster's failure, said in its
// outcome and its log line, and it resolves: the worker's loop over the clusters it owns goes on to the next one.
// (A scrape claims such a cluster for a moment before it gives it back, and a capture pass in that moment used to
// throw out of the whole loop: the passes of every cluster after it were lost with it.)
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/base/db/database.ts';
import { DEFAULT_SETTINGS } from '@test/default-settings.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { CaptureReconciler } from './capture-reconciler.ts';

process.env.FLOTILLA_SECRET_KEY ??= Buffer.alloc(32, 9).toString('base64');

let database: TestDatabase;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  db = openDatabase(database.url, { poolSize: 2, applicationName: 'capture-pass-failure-test' });
});

afterAll(async () => {
  await db.close();
  await database.drop();
});

it('ends a pass whose cluster credentials cannot be read as one failure of that cluster, and logs why', async () => {
  // The test kit's cluster row holds a password sealed under no key at all.
  const clusterId = await insertClusterRow(db.prisma);
  const logged: string[] = [];
  const reconciler = new CaptureReconciler({
    prisma: db.prisma,
    pool: db.pool,
    settings: DEFAULT_SETTINGS,
    deploymentId: 'd0000000',
    log: (message) => logged.push(message),
  });
  const outcome = await reconciler.pass(clusterId);
  expect(outcome).toMatchObject({ clusterId, installed: 0, removed: 0, failed: 1, live: [] });
  expect(outcome.error).toMatch(/sealed with key none/);
  expect(outcome.skipped).toBeUndefined();
  expect(logged).toEqual([expect.stringContaining(`the capture pass of cluster ${clusterId} could not run`)]);
  // The pass gave its cluster's lock back: the next one runs (and fails the same way) instead of finding it held.
  expect((await reconciler.pass(clusterId)).skipped).toBeUndefined();
});
