// Internal notifications on a real database bus: local consumers run in publish order, each awaited; another
// process (here: a second bus connection) receives the same notifications in the same order; a failing consumer
// does not stop the others.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InternalNotifications } from '../../src/modules/kernel/core/internal-notifications.ts';
import { createDatabaseBus, type DatabaseBus } from '../../src/base/db/bus.ts';
import { openDatabase, type Database } from '../../src/base/db/database.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';

let database: TestDatabase;
let db: Database;
let webBus: DatabaseBus;
let workerBus: DatabaseBus;

beforeAll(async () => {
  database = await createTestDatabase({ migrate: false });
  db = openDatabase(database.url, { poolSize: 2, applicationName: 'notifications-test' });
  webBus = createDatabaseBus(database.url, db.pool, 'web');
  workerBus = createDatabaseBus(database.url, db.pool, 'worker');
});

afterAll(async () => {
  await webBus.close();
  await workerBus.close();
  await db.close();
  await database.drop();
});

const tier = (clusterId: string, tier: 'A' | 'B' | 'C') => ({
  clusterId,
  tier,
  startedAt: '2026-11-22T00:00:00.000Z',
  completedAt: '2026-11-22T00:00:01.000Z',
  nodesScraped: 2,
  nodesFailed: 0,
});

describe('internal notifications', () => {
  it('deliver locally in order, awaiting each consumer, and reach the other process in the same order', async () => {
    const web = new InternalNotifications(webBus);
    const worker = new InternalNotifications(workerBus);
    await Promise.all([webBus.ready(), workerBus.ready()]);
    const local: string[] = [];
    const remote: string[] = [];
    web.subscribe('ScrapeTierCompleted', async ({ tier }) => {
      await new Promise((resolve) => setTimeout(resolve, tier === 'A' ? 30 : 1));
      local.push(tier);
    });
    web.subscribe('ScrapeTierCompleted', () => {
      throw new Error('a broken consumer');
    });
    worker.subscribe('ScrapeTierCompleted', ({ tier }) => void remote.push(tier));
    worker.subscribe('ClusterRegistered', ({ name }) => void remote.push(name));

    await web.publish('ScrapeTierCompleted', tier('c1', 'A'));
    expect(local).toEqual(['A']);
    await web.publish('ScrapeTierCompleted', tier('c1', 'B'));
    await web.publish('ClusterRegistered', { clusterId: 'c1', name: 'orders', environmentId: null });
    await web.publish('ScrapeTierCompleted', tier('c1', 'C'));
    expect(local).toEqual(['A', 'B', 'C']);

    const deadline = Date.now() + 5_000;
    while (remote.length < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(remote).toEqual(['A', 'B', 'orders', 'C']);
  });

  it('are not delivered twice to the publishing process', async () => {
    const web = new InternalNotifications(webBus);
    const seen: string[] = [];
    web.subscribe('ClusterChanged', ({ change }) => void seen.push(change));
    await web.publish('ClusterChanged', { clusterId: 'c1', change: 'removed' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen).toEqual(['removed']);
  });
});
