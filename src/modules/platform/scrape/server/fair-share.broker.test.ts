// Three workers on one database share the clusters out (fair-share.ts): one alone takes them all; when two more come
// up it hands two back and each worker scrapes one; when a worker dies (its lock session ends, its report still
// fresh) its cluster goes to a survivor within two ownership passes, and no cluster is ever scraped by two workers at
// once. Real PostgreSQL, a real (leased) Artemis broker behind the three clusters, the real worker services.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { eventually } from '@test/eventually.ts';
import { saveCluster, startWorker, storeSettings, withClient, type WorkerInstance } from '@test/worker-kit.ts';

const broker = leaseSingleNode();
let database: TestDatabase;
const clusterIds: string[] = [];
const workers = new Map<string, WorkerInstance>();

/** Per cluster, the instances whose sweeps started after `since`. */
async function sweepersSince(since: Date): Promise<Map<string, Set<string>>> {
  const rows = await withClient(
    database.url,
    async (client) =>
      (
        await client.query<{ cluster_id: string; instance_id: string }>(
          `SELECT n.cluster_id, s.instance_id FROM scrape_sweep s JOIN cluster_node n ON n.id = s.node_id
            WHERE s.last_started_at > $1`,
          [since],
        )
      ).rows,
  );
  const byCluster = new Map<string, Set<string>>(clusterIds.map((id) => [id, new Set()]));
  for (const row of rows) byCluster.get(row.cluster_id)?.add(row.instance_id);
  return byCluster;
}

/** Waits until every cluster is swept, after `since`, by exactly one instance, and a different one each. */
async function oneWorkerPerCluster(since: Date, timeoutMs: number): Promise<Map<string, string>> {
  return eventually(
    'each cluster swept by one worker of its own',
    async () => {
      const sweepers = await sweepersSince(since);
      const owners = new Map([...sweepers].map(([clusterId, instances]) => [clusterId, [...instances]]));
      const single = [...owners.values()].every((instances) => instances.length === 1);
      const distinct = new Set([...owners.values()].flat()).size === clusterIds.length;
      return single && distinct ? new Map([...owners].map(([id, [only]]) => [id, only ?? ''])) : undefined;
    },
    timeoutMs,
  );
}

beforeAll(async () => {
  database = await createTestDatabase();
  await storeSettings(database.url, {
    'scrape.tier-a-interval': '1s',
    'scrape.tier-b-interval': '1s',
    // A dead worker counts as live for two of these: longer than the orphan may wait (the last test's bound).
    'broker.health.report-interval': '10s',
  });
  for (const name of ['share-a', 'share-b', 'share-c'])
    clusterIds.push((await saveCluster(database.url, name, broker.nodes)).clusterId);
});

afterAll(async () => {
  await Promise.all([...workers.values()].map((worker) => worker.stop()));
  await database.drop();
  await broker.stop();
});

describe('several workers on one database', () => {
  it('one worker alone scrapes every cluster', async () => {
    workers.set('share-one', await startWorker(database.url, 'share-one'));
    const since = new Date();
    await eventually(
      'every cluster swept by share-one',
      async () => {
        const sweepers = await sweepersSince(since);
        return [...sweepers.values()].every((instances) => instances.has('share-one')) || undefined;
      },
      45_000, // a worker's first start in a busy run
    );
  }, 60_000);

  it('shares them out when two more workers come up: one cluster each', async () => {
    for (const id of ['share-two', 'share-three']) workers.set(id, await startWorker(database.url, id));
    // Three passes over its share before share-one hands back: allow for them and a pass of the others.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const owners = await oneWorkerPerCluster(new Date(), 20_000);
    expect(new Set(owners.values())).toEqual(new Set(['share-one', 'share-two', 'share-three']));
  }, 60_000);

  it('gives a dead worker’s cluster to a survivor within two passes, never to two', async () => {
    const before = await oneWorkerPerCluster(new Date(), 20_000);
    const [orphan, victim] = [...before].find(([, instance]) => instance === 'share-two') ?? [];
    expect(victim).toBe('share-two');
    // Death as PostgreSQL sees it: the victim's lock session ends (its report stays fresh for two intervals), then it
    // stops working.
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ ended: boolean }>(
        `SELECT pg_terminate_backend(held.pid) AS ended
           FROM pg_locks held
          WHERE held.locktype = 'advisory' AND held.objsubid = 1 AND held.granted
            AND held.database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND held.classid = ((hashtextextended($1, 0) >> 32) & 4294967295)::oid
            AND held.objid = (hashtextextended($1, 0) & 4294967295)::oid`,
        [`clusters.owner:${orphan ?? ''}`],
      );
      expect(rows).toEqual([{ ended: true }]);
    } finally {
      await admin.end();
    }
    await workers.get('share-two')?.stop();
    workers.delete('share-two');
    const diedAt = Date.now();
    const taken = await eventually(
      'the orphan swept by a survivor',
      async () => {
        const instances = (await sweepersSince(new Date(diedAt))).get(orphan ?? '');
        return instances && instances.size > 0 ? [...instances] : undefined;
      },
      15_000,
    );
    const tookMs = Date.now() - diedAt;
    expect(taken.length).toBe(1);
    expect(['share-one', 'share-three']).toContain(taken[0]);
    // Two passes of 1 s, a pass's own time and a tier-B sweep; its report keeps it counted for 10 to 20 s more.
    expect(tookMs).toBeLessThan(8_000);
    // From then on every cluster has one sweeper.
    const settledAt = new Date();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    for (const instances of (await sweepersSince(settledAt)).values()) expect(instances.size).toBe(1);
  }, 60_000);
});
