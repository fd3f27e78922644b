// Two instances on one database: only one owns a cluster's HA reconciliation (and so its subscriptions); when the
// owner goes away — cleanly, or because its lock connection dies — the other takes the cluster over.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../../test/support/database.ts';
import { ClusterOwnership } from './cluster-ownership.ts';

let database: TestDatabase;
let poolA: pg.Pool;
let poolB: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase({ migrate: false });
  poolA = new pg.Pool({ connectionString: database.url, max: 2, application_name: 'instance-a' });
  poolB = new pg.Pool({ connectionString: database.url, max: 2, application_name: 'instance-b' });
});

afterAll(async () => {
  await poolA.end();
  await poolB.end();
  await database.drop();
});

const CLUSTER = '6f1c2f4e-1d7a-4a35-9a59-3f4b5f0c9e11';
const OTHER = '0b7e3c2a-5d14-4f43-8f0e-8c2d9a6e7b20';

describe('cluster ownership', () => {
  it('goes to one instance at a time and passes on when the owner lets go', async () => {
    const a = new ClusterOwnership(poolA, () => undefined);
    const b = new ClusterOwnership(poolB, () => undefined);
    expect(await a.claim(CLUSTER)).toBe(true);
    expect(await a.claim(CLUSTER)).toBe(true); // re-claiming what it owns is free
    expect(await b.claim(CLUSTER)).toBe(false);
    expect(await b.claim(OTHER)).toBe(true);

    await a.release(CLUSTER);
    expect(await b.claim(CLUSTER)).toBe(true);
    expect(await a.claim(CLUSTER)).toBe(false);
    b.close();
    a.close();
  });

  it('passes on when the owner dies, and tells the owner it lost everything', async () => {
    const lost: string[][] = [];
    const a = new ClusterOwnership(poolA, (clusterIds) => lost.push([...clusterIds]));
    const b = new ClusterOwnership(poolB, () => undefined);
    expect(await a.claim(CLUSTER)).toBe(true);
    expect(await b.claim(CLUSTER)).toBe(false);

    // Kill A's lock session from the outside, as a crashed instance or a dropped connection would.
    await poolB.query(
      `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND pid <> pg_backend_pid()`,
    );
    const deadline = Date.now() + 5_000;
    while (lost.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lost).toEqual([[CLUSTER]]);
    expect(a.isOwned(CLUSTER)).toBe(false);
    expect(await b.claim(CLUSTER)).toBe(true);
    b.close();
    a.close();
  });
});
