// metric_sample's and metric_minute's day partitions on a real PostgreSQL: made ahead (twice is harmless), expired ones dropped by the
// retention step while younger ones and the parent stay, and samples land in the partition of their day.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { dropExpiredPartitions, makePartitionsAhead } from './partition-maintenance.ts';

let database: TestDatabase;
let client: pg.Client;
const DAY = 86_400_000;

async function partitions(): Promise<string[]> {
  const result = await client.query<{ relname: string }>(
    `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
      WHERE p.relname IN ('metric_sample', 'metric_minute') ORDER BY c.relname`,
  );
  return result.rows.map((row) => row.relname);
}

beforeAll(async () => {
  database = await createTestDatabase();
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});

afterAll(async () => {
  await client.end();
  await database.drop();
});

describe('metric_sample partitions', () => {
  it('are made for today and two days ahead, idempotently, and take samples of their day', async () => {
    const now = new Date('2026-11-22T10:00:00Z');
    const execute = (sql: string) => client.query(sql);
    const days = ['20261122', '20261123', '20261124'];
    const expected = ['metric_sample', 'metric_minute'].flatMap((table) => days.map((day) => `${table}_p${day}`));
    expect(await makePartitionsAhead(execute, now)).toEqual(expected);
    await makePartitionsAhead(execute, now);
    expect(await partitions()).toEqual([...expected].sort());
    await client.query(
      `INSERT INTO metric_sample VALUES (1, '2026-11-23T23:59:59.999Z', 1, 0, 0, 1, 0, 0), (1, '2026-11-24T00:00:00Z', 2, 0, 0, 2, 0, 0)`,
    );
    const placed = await client.query<{ partition: string; n: number }>(
      `SELECT tableoid::regclass::text AS partition, count(*)::int AS n FROM metric_sample GROUP BY 1 ORDER BY 1`,
    );
    expect(placed.rows).toEqual([
      { partition: 'metric_sample_p20261123', n: 1 },
      { partition: 'metric_sample_p20261124', n: 1 },
    ]);
    await expect(
      client.query(`INSERT INTO metric_sample VALUES (1, '2030-01-01T00:00:00Z', 1, 0, 0, 1, 0, 0)`),
    ).rejects.toThrow(/no partition/);
  });

  it('older than the retention window are dropped, the others stay', async () => {
    const now = new Date('2026-11-24T06:00:00Z');
    // Retention 1 day: the 22nd ended 30 h ago (dropped), the 23rd ended 6 h ago (kept).
    await dropExpiredPartitions((sql) => client.query(sql), DAY, now);
    expect(await partitions()).toEqual([
      'metric_minute_p20261123',
      'metric_minute_p20261124',
      'metric_sample_p20261123',
      'metric_sample_p20261124',
    ]);
    await dropExpiredPartitions((sql) => client.query(sql), DAY, new Date(now.getTime() + 2 * DAY));
    expect(await partitions()).toEqual([]);
    const parent = await client.query(`SELECT 1 FROM pg_class WHERE relname = 'metric_sample'`);
    expect(parent.rowCount).toBe(1);
  });
});
