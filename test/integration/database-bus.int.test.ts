// The database bus on a real PostgreSQL: a handler hears its channel until it unsubscribes; the last handler of a
// channel leaving ends the connection's LISTEN, and a reconnect calls only the handlers still subscribed, so a
// stopped service leaves nothing listening behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabaseBus, type DatabaseBus } from '../../src/base/db/bus.ts';
import { openDatabase, type Database } from '../../src/base/db/database.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';

let database: TestDatabase;
let db: Database;
let bus: DatabaseBus;

beforeAll(async () => {
  database = await createTestDatabase({ migrate: false });
  db = openDatabase(database.url, { poolSize: 2, applicationName: 'bus-test' });
  bus = createDatabaseBus(database.url, db.pool, 'bus-test');
  await bus.ready();
});

afterAll(async () => {
  await bus.close();
  await db.close();
  await database.drop();
});

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('database bus', () => {
  it('stops delivering to a handler that unsubscribed and keeps delivering to the others', async () => {
    const first: string[] = [];
    const second: string[] = [];
    const stopFirst = bus.listen('bus_test_a', (payload) => void first.push(payload));
    bus.listen('bus_test_a', (payload) => void second.push(payload));
    await until(async () => {
      await bus.notify('bus_test_a', 'ping');
      return first.length > 0;
    }, 'the first LISTEN');
    stopFirst();
    await bus.notify('bus_test_a', 'after');
    await until(() => second.includes('after'), 'the second handler to hear "after"');
    expect(first).not.toContain('after');
  });

  it('runs the LISTENs of many services starting at once one after another on its connection', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning.message);
    process.on('warning', onWarning);
    const heard: string[] = [];
    const channels = Array.from({ length: 20 }, (_, index) => `bus_test_many_${String(index)}`);
    const stops = channels.map((channel) => bus.listen(channel, (payload) => void heard.push(payload)));
    try {
      const last = channels.at(-1) ?? '';
      await until(async () => {
        await bus.notify(last, 'ping');
        return heard.length > 0;
      }, 'the last LISTEN');
    } finally {
      for (const stop of stops) stop();
      process.off('warning', onWarning);
    }
    expect(warnings.filter((message) => message.includes('already executing a query'))).toEqual([]);
  });

  it('ends the LISTEN of a channel once its last handler left', async () => {
    const heard: string[] = [];
    const stop = bus.listen('bus_test_b', (payload) => void heard.push(payload));
    await until(async () => {
      await bus.notify('bus_test_b', 'ping');
      return heard.length > 0;
    }, 'the LISTEN');
    stop();
    // pg_stat_activity shows an idle session's last statement: the bus's own connection ran the UNLISTEN.
    await until(async () => {
      const { rows } = await db.pool.query<{ query: string }>(
        `SELECT query FROM pg_stat_activity WHERE application_name = 'bus-test-bus'`,
      );
      return rows.some((row) => row.query === 'UNLISTEN bus_test_b');
    }, 'the bus connection to run UNLISTEN');
  });

  it('calls the reconnect handlers still subscribed after its connection was cut, and only those', async () => {
    let left = 0;
    let stayed = 0;
    const stopLeaving = bus.onReconnect(() => left++);
    bus.onReconnect(() => stayed++);
    stopLeaving();
    await db.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'bus-test-bus'`,
    );
    await until(() => stayed > 0, 'the bus to reconnect');
    expect(left).toBe(0);
  });
});
