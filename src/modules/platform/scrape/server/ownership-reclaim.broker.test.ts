// The ownership's lock connection breaks while the worker lives (a database restart, here its backend ended): the
// worker gives its cluster up and claims it again as soon as the database answers — seconds, not the next tier-A
// pass (a minute here). Real PostgreSQL, a leased Artemis broker, the real worker services.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { eventually } from '@test/eventually.ts';
import { saveCluster, startWorker, storeSettings, withClient, type WorkerInstance } from '@test/worker-kit.ts';

const broker = leaseSingleNode();
let database: TestDatabase;
let clusterId: string;
let worker: WorkerInstance | undefined;

/** The backend holding the cluster's ownership lock in this database, if any. */
const OWNER_PID = `
  SELECT held.pid FROM pg_locks held
   WHERE held.locktype = 'advisory' AND held.objsubid = 1 AND held.granted
     AND held.database = (SELECT oid FROM pg_database WHERE datname = current_database())
     AND held.classid = ((hashtextextended($1, 0) >> 32) & 4294967295)::oid
     AND held.objid = (hashtextextended($1, 0) & 4294967295)::oid`;

const ownerPid = () =>
  withClient(
    database.url,
    async (client) => (await client.query<{ pid: number }>(OWNER_PID, [`clusters.owner:${clusterId}`])).rows[0]?.pid,
  );

const sweptSince = (since: Date) =>
  withClient(
    database.url,
    async (client) =>
      (
        await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM scrape_sweep s JOIN cluster_node n ON n.id = s.node_id
            WHERE n.cluster_id = $1 AND s.last_started_at > $2`,
          [clusterId, since],
        )
      ).rows[0]?.n ?? 0,
  );

beforeAll(async () => {
  database = await createTestDatabase();
  await storeSettings(database.url, { 'scrape.tier-a-interval': '60s', 'scrape.tier-b-interval': '1s' });
  ({ clusterId } = await saveCluster(database.url, 'reclaimed', broker.nodes));
  worker = await startWorker(database.url, 'reclaim-one');
});

afterAll(async () => {
  await worker?.stop();
  await database.drop();
  await broker.stop();
});

it('claims its cluster again within seconds of its lock connection breaking, and scrapes it again', async () => {
  const first = await eventually('the cluster owned', ownerPid, 45_000);
  await eventually('the cluster swept', async () => (await sweptSince(new Date(0))) > 0 || undefined, 30_000);
  await withClient(database.url, (client) => client.query('SELECT pg_terminate_backend($1)', [first]));
  const brokeAt = Date.now();
  const again = await eventually(
    'the cluster owned again',
    async () => {
      const pid = await ownerPid();
      return pid !== undefined && pid !== first ? pid : undefined;
    },
    20_000,
  );
  const tookMs = Date.now() - brokeAt;
  expect(again).not.toBe(first);
  // Well inside the 60 s tier-A interval: a backoff step and a pass.
  expect(tookMs).toBeLessThan(15_000);
  const resumed = new Date();
  await eventually('swept again after the claim', async () => (await sweptSince(resumed)) > 0 || undefined, 15_000);
}, 120_000);
