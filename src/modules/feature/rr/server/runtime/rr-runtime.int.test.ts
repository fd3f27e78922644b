// The correlator runtime on a real PostgreSQL, without brokers: requests a previous correlator left waiting are
// settled with a note when this one takes the cluster (it never saw them), and a captured pair handed over as the
// capture bus hands it becomes one COMPLETED row, its waiting row replaced.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabaseBus, type DatabaseBus } from '@/base/db/bus.ts';
import { openDatabase, type Database } from '@/base/db/database.ts';
import { DEFAULT_SETTINGS } from '@test/default-settings.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { waitFor } from '@test/native-test-helpers.ts';
import { RrWriter } from '../store/rr-writer.ts';
import { RrRuntime } from './rr-runtime.ts';

process.env.FLOTILLA_SECRET_KEY ??= Buffer.alloc(32, 7).toString('base64');

let database: TestDatabase;
let db: Database;
let bus: DatabaseBus;
const clusterId = randomUUID();
const nodeId = randomUUID();

beforeAll(async () => {
  database = await createTestDatabase();
  db = openDatabase(database.url, { poolSize: 4, applicationName: 'rr-runtime-test' });
  bus = createDatabaseBus(database.url, db.pool, 'rr-runtime-bus');
  await bus.ready();
  await insertClusterRow(db.prisma, { id: clusterId });
});

afterAll(async () => {
  await bus.close();
  await db.close();
  await database.drop();
});

function runtimeWith(writer: RrWriter) {
  return new RrRuntime({
    prisma: db.prisma,
    settings: DEFAULT_SETTINGS,
    owns: (id) => id === clusterId,
    owned: () => [clusterId],
    writer,
    capturedAddresses: () => Promise.resolve(new Set(['orders.requests', 'orders.replies'])),
  });
}

const captured = (fields: Record<string, unknown>) => ({
  id: randomUUID(),
  address: 'orders.requests',
  clusterId,
  nodeId,
  correlation_id: null,
  reply_to: null,
  expiration: null,
  time: new Date().toISOString(),
  receivedAt: new Date().toISOString(),
  properties: {},
  ...fields,
});

describe('the correlator runtime', () => {
  it('settles what a previous correlator left waiting, and turns a captured pair into one completed row', async () => {
    const signals: string[] = [];
    const writer = new RrWriter({
      pool: db.pool,
      governance: { db, bus },
      publishSignal: (topic) => {
        signals.push(topic);
        return Promise.resolve();
      },
    });
    // A previous life: a request seen and left waiting.
    const before = runtimeWith(writer);
    before.captured([captured({ correlation_id: 'left-behind', reply_to: 'orders.replies' })]);
    await writer.flush();
    expect((await db.prisma.rrEvent.findMany()).map((row) => row.state)).toEqual(['AWAITING_REPLY']);

    const runtime = runtimeWith(writer);
    runtime.start();
    try {
      const sentAt = Date.now() - 40;
      runtime.captured([
        captured({ correlation_id: 'pair', reply_to: 'orders.replies', sentAt: new Date(sentAt).toISOString() }),
      ]);
      runtime.captured([
        captured({
          address: 'orders.replies',
          correlation_id: 'pair',
          sentAt: new Date(sentAt + 25).toISOString(),
        }),
      ]);
      const rows = await waitFor('both settled', async () => {
        const found = await db.prisma.rrEvent.findMany({ orderBy: { requestAt: 'asc' } });
        return found.length === 2 && found.every((row) => row.state !== 'AWAITING_REPLY') ? found : undefined;
      });
      const left = rows.find((row) => row.note?.includes('stopped'));
      expect(left?.state).toBe('TIMED_OUT');
      const pair = rows.find((row) => row.state === 'COMPLETED');
      expect(pair).toMatchObject({ latencyMs: 25, clock: 'message', headers: null, sealedCipher: null });
      expect(signals).toContain('rr');
    } finally {
      await runtime.stop();
    }
  });
});
