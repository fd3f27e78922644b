// Alert evaluations counted for GET /metrics on a real PostgreSQL: the worker's in-memory counts are added to
// alert_evaluation at each flush (a counter that only grows, failures apart), a cluster deleted meanwhile loses its
// counts without holding up the others', and alerting's telemetry source exposes them per cluster.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/base/db/database.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { alertingTelemetry } from './alerting-telemetry.ts';
import { EvaluationCounts } from './evaluation-counts.ts';

let database: TestDatabase;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  db = openDatabase(database.url, { poolSize: 2, applicationName: 'evaluation-counts-test' });
}, 60_000);

afterAll(async () => {
  await db.close();
  await database.drop();
});

const stored = () =>
  db.query<{ cluster_id: string; evaluations: string; failures: string; last_ms: number }>(
    'SELECT cluster_id, evaluations::text, failures::text, last_ms FROM alert_evaluation ORDER BY cluster_id',
  );

describe('alert evaluation counts', () => {
  it('adds each flush’s counts to the stored ones, and exposes them per cluster', async () => {
    const payments = await insertClusterRow(db.prisma, { name: 'payments' });
    const counts = new EvaluationCounts();
    counts.note(payments, 12.4, false);
    counts.note(payments, 30, true);
    await counts.flush(db.pool);
    counts.note(payments, 7, false);
    await counts.flush(db.pool);
    await counts.flush(db.pool); // nothing counted since: nothing added
    expect(await stored()).toEqual([{ cluster_id: payments, evaluations: '3', failures: '1', last_ms: 7 }]);

    const families = await alertingTelemetry.collect({
      db,
      now: new Date(),
      clusterNames: new Map([[payments, 'payments']]),
      queues: [],
    });
    const total = families.find((family) => family.name === 'flotilla_alert_evaluations_total');
    expect(total?.samples).toEqual([
      { labels: { cluster: 'payments', outcome: 'ok' }, value: 2 },
      { labels: { cluster: 'payments', outcome: 'failed' }, value: 1 },
    ]);
    const last = families.find((family) => family.name === 'flotilla_alert_evaluation_last_duration_seconds');
    expect(last?.samples).toEqual([{ labels: { cluster: 'payments' }, value: 0.007 }]);
  });

  it('drops the counts of a cluster deleted before the flush and keeps the others’', async () => {
    const kept = await insertClusterRow(db.prisma, { name: 'kept' });
    const gone = await insertClusterRow(db.prisma, { name: 'gone' });
    const counts = new EvaluationCounts();
    counts.note(kept, 5, false);
    counts.note(gone, 5, false);
    await db.query('DELETE FROM cluster WHERE id = $1', [gone]);
    await counts.flush(db.pool);
    const rows = await stored();
    expect(rows.find((row) => row.cluster_id === kept)).toMatchObject({ evaluations: '1' });
    expect(rows.find((row) => row.cluster_id === gone)).toBeUndefined();
  });
});
