// Two instances on one database: only one owns a cluster (scrapes it, reconciles its HA, holds its subscriptions);
// when the owner lets go — cleanly, or because its lock connection dies — the other takes the cluster over. Within
// one process the scrape and HA share the ownership, and it ends when the last of them detaches.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { ClusterOwnership, clusterOwnershipOf } from './cluster-ownership.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase({ migrate: false });
});

afterAll(async () => {
  await database.drop();
});

const CLUSTER = '6f1c2f4e-1d7a-4a35-9a59-3f4b5f0c9e11';
const OTHER = '0b7e3c2a-5d14-4f43-8f0e-8c2d9a6e7b20';

describe('cluster ownership', () => {
  it('claims many clusters at once on one lock connection, so every lock it holds is one it knows of', async () => {
    const a = new ClusterOwnership(database.url);
    const clusters = Array.from(
      { length: 12 },
      (_, index) => `3d0c1a52-7e4b-4c1f-9a2e-${String(index).padStart(12, '0')}`,
    );
    expect(await Promise.all(clusters.map((clusterId) => a.claim(clusterId)))).toEqual(clusters.map(() => true));
    // Counted in this file's database only: another file's instances hold lock connections of the same name.
    const probe = new pg.Client({ connectionString: database.url });
    await probe.connect();
    try {
      const { rows } = await probe.query<{ connections: number; locks: number }>(
        `SELECT count(DISTINCT a.pid)::int AS connections, count(l.*)::int AS locks
           FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid AND l.locktype = 'advisory'
          WHERE a.application_name = 'flotilla-locks-clusters.owner' AND a.datname = current_database()`,
      );
      expect(rows[0]).toEqual({ connections: 1, locks: clusters.length });
    } finally {
      await probe.end();
      await a.close();
    }
  });

  it('tells which clusters nobody owns without taking them, in this database only', async () => {
    const a = new ClusterOwnership(database.url);
    const b = new ClusterOwnership(database.url);
    const elsewhere = await createTestDatabase({ migrate: false });
    const c = new ClusterOwnership(elsewhere.url);
    try {
      expect(await a.claim(CLUSTER)).toBe(true);
      expect(await c.claim(OTHER)).toBe(true); // the same key in another database is not this one's
      expect(await b.unowned([CLUSTER, OTHER])).toEqual([OTHER]);
      expect(await a.unowned([CLUSTER, OTHER])).toEqual([OTHER]); // its own count as owned too
      expect(await b.claim(OTHER)).toBe(true); // asking took nothing
      await a.release(CLUSTER);
      expect(await b.unowned([CLUSTER, OTHER])).toEqual([CLUSTER]);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
      await elsewhere.drop();
    }
  });

  it('goes to one instance at a time and passes on when the owner lets go, telling its listeners', async () => {
    const a = new ClusterOwnership(database.url);
    const b = new ClusterOwnership(database.url);
    const released: string[] = [];
    a.onRelease((clusterId) => released.push(clusterId));
    expect(await a.claim(CLUSTER)).toBe(true);
    expect(await a.claim(CLUSTER)).toBe(true); // re-claiming what it owns is free
    expect(await b.claim(CLUSTER)).toBe(false);
    expect(await b.claim(OTHER)).toBe(true);

    await a.release(CLUSTER);
    expect(released).toEqual([CLUSTER]);
    expect(await b.claim(CLUSTER)).toBe(true);
    expect(await a.claim(CLUSTER)).toBe(false);
    await b.close();
    await a.close();
  });

  it('passes on when the owner dies, and tells the owner it lost everything', async () => {
    const lost: string[][] = [];
    const a = new ClusterOwnership(database.url);
    const b = new ClusterOwnership(database.url);
    a.onLost((clusterIds) => lost.push([...clusterIds]));
    expect(await a.claim(CLUSTER)).toBe(true);
    expect(await b.claim(CLUSTER)).toBe(false);

    // Kill A's lock session from the outside, as a crashed instance or a dropped connection would.
    const killer = new pg.Client({ connectionString: database.url });
    await killer.connect();
    await killer.query(
      // This database's only: the same connection name holds other files' (and other runs') ownerships.
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'flotilla-locks-clusters.owner'
          AND datname = current_database()
          AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted)
          AND pid <> pg_backend_pid()`,
    );
    await killer.end();
    await expect.poll(() => lost, { timeout: 5_000 }).toEqual([[CLUSTER]]);
    expect(a.owns(CLUSTER)).toBe(false);
    expect(await b.claim(CLUSTER)).toBe(true);
    await b.close();
    await a.close();
  });

  it('is one per process, shared by its users, and ends when the last one detaches', async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    const scrape = clusterOwnershipOf(pool);
    const ha = clusterOwnershipOf(pool);
    expect(ha.ownership).toBe(scrape.ownership);
    expect(await scrape.ownership.claim(CLUSTER)).toBe(true);
    expect(ha.ownership.owns(CLUSTER)).toBe(true);
    await scrape.detach();
    const other = new ClusterOwnership(database.url);
    expect(await other.claim(CLUSTER)).toBe(false); // HA still attached: the cluster stays owned
    await ha.detach();
    await expect.poll(() => other.claim(CLUSTER), { timeout: 5_000 }).toBe(true);
    await other.close();
    await pool.end();
  });
});
