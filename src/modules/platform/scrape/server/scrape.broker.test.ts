// The scrape on a real two-node Artemis cluster and a real PostgreSQL, with two worker instances on one database:
// only one scrapes the cluster; a queue created on a broker appears after tier B and a destroyed one is gone after
// tier C; a stopped node keeps its rows, flagged stale, while the other stays fresh; when the owner stops, the
// other instance takes the cluster over.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabaseBus, type DatabaseBus } from '@/base/db/bus.ts';
import { STREAM_CHANNEL } from '@/modules/kernel/stream/index.ts';
import { createQueues, destroyQueues, ManagementClient } from '@/modules/platform/broker/index.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { startCluster, type Topology } from '@test/artemis/index.ts';
import { eventually } from '@test/eventually.ts';
import {
  saveCluster,
  startWorker,
  storeSettings,
  withClient,
  type SavedCluster,
  type WorkerInstance,
} from '@test/worker-kit.ts';
import { readQueueGrid } from '../read/queue-grid.ts';
import { readQueueRows } from '../read/node-queue-rows.ts';
import { readSweeps } from '../read/sweeps.ts';
import { check as scrapeHealth } from './scrape.health.ts';

let topology: Topology;
let database: TestDatabase;
let saved: SavedCluster;
const workers: WorkerInstance[] = [];
const clients: ManagementClient[] = [];
const signals: Array<{ topic: string; clusterId: string; at: number }> = [];
let listenerPool: pg.Pool;
let listener: DatabaseBus;
/** Which instance wrote each sweep row seen while polling scrape_sweep, with when the row said it started. */
const sweepWriters = new Map<string, string>();

const TIER_B_MS = 1_000;

async function sweepRows() {
  return withClient(
    database.url,
    async (client) =>
      (
        await client.query<{ node_id: string; tier: string; instance_id: string; last_started_at: Date }>(
          'SELECT node_id, tier, instance_id, last_started_at FROM scrape_sweep',
        )
      ).rows,
  );
}

async function snapshotNames(nodeId: string): Promise<string[]> {
  return withClient(database.url, async (client) =>
    (
      await client.query<{ queue_name: string }>('SELECT queue_name FROM queue_snapshot WHERE node_id = $1', [nodeId])
    ).rows.map((row) => row.queue_name),
  );
}

function ownerOf(rows: Awaited<ReturnType<typeof sweepRows>>): Set<string> {
  return new Set(rows.map((row) => row.instance_id));
}

beforeAll(async () => {
  [topology, database] = await Promise.all([startCluster(), createTestDatabase()]);
  await storeSettings(database.url, {
    'scrape.tier-a-interval': '1s',
    'scrape.tier-b-interval': `${TIER_B_MS}ms`,
    'scrape.tier-c-interval': '3s',
    'broker.management.timeout': '3s',
  });
  saved = await saveCluster(database.url, 'pair', topology.nodes);
  // Listening before any worker starts: the first sweep's queues signal may go out before a worker's own bus would
  // have been handed a listener (NOTIFY is not queued for absent listeners).
  listenerPool = new pg.Pool({ connectionString: database.url, max: 1 });
  listener = createDatabaseBus(database.url, listenerPool, 'scrape-test');
  listener.listen(STREAM_CHANNEL, (payload) => {
    const signal = JSON.parse(payload) as { topic: string; clusterId: string };
    signals.push({ ...signal, at: Date.now() });
  });
  await listener.ready();
  for (const instanceId of ['scrape-one', 'scrape-two']) workers.push(await startWorker(database.url, instanceId));
});

afterAll(async () => {
  for (const client of clients) client.close();
  await Promise.all(workers.map((worker) => worker.stop()));
  await listener.close();
  await listenerPool.end();
  await topology.stop();
  await database.drop();
});

function firstWorker(): WorkerInstance {
  const [worker] = workers;
  if (!worker) throw new Error('no worker started');
  return worker;
}

function managementClient(index: number): ManagementClient {
  const node = topology.nodes[index];
  if (!node) throw new Error(`no node ${index}`);
  const client = new ManagementClient({ url: node.managementUrl, user: node.user, password: node.password });
  clients.push(client);
  return client;
}

describe('scrape on a real two-node cluster', () => {
  it('one of two instances scrapes the cluster, every tier on every node', async () => {
    const rows = await eventually(
      'a sweep of each tier on both nodes',
      async () => {
        const current = await sweepRows();
        return current.length === 6 ? current : undefined;
      },
      30_000,
    );
    // Watch for a few ticks: every sweep of the cluster is written by the same instance, and with nothing changing
    // on the brokers no `queues` signal goes out (signals follow changes, not ticks). A cluster just started still
    // creates its own queues (the bridges' store-and-forward queues, later on a slow machine): watch from when the
    // queues have been quiet for three tier-B ticks.
    const quietFor = 3 * TIER_B_MS;
    await eventually(
      'the cluster’s own queues settled',
      () => {
        const lastChange = Math.max(0, ...signals.filter((signal) => signal.topic === 'queues').map((s) => s.at));
        return Promise.resolve(Date.now() - lastChange >= quietFor ? true : undefined);
      },
      30_000,
    );
    const watchFrom = Date.now();
    const deadline = watchFrom + 4_000;
    while (Date.now() < deadline) {
      for (const row of await sweepRows())
        sweepWriters.set(`${row.node_id}:${row.tier}:${+row.last_started_at}`, row.instance_id);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(ownerOf(rows).size).toBe(1);
    expect(new Set(sweepWriters.values()).size).toBe(1);
    expect(signals.filter((signal) => signal.topic === 'queues' && signal.at >= watchFrom)).toEqual([]);
    expect(signals.some((signal) => signal.topic === 'queues' && signal.at < watchFrom)).toBe(true);
    const locks = await withClient(
      database.url,
      async (client) =>
        (
          await client.query<{ n: number }>(
            // pg_locks is server-wide: count this database's cluster-ownership locks only (held on the ownership's
            // own connection, named after its lock namespace).
            `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
              WHERE l.locktype = 'advisory' AND a.application_name = 'flotilla-locks-clusters.owner'
                AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
          )
        ).rows[0]?.n,
    );
    expect(locks).toBe(1);
    // Tier A wrote the HA columns.
    const nodes = await withClient(
      database.url,
      async (client) =>
        (
          await client.query<{ active: boolean; ha_polled_at: Date | null }>(
            'SELECT active, ha_polled_at FROM cluster_node',
          )
        ).rows,
    );
    expect(nodes.every((node) => node.active && node.ha_polled_at !== null)).toBe(true);
  });

  it('a queue created on a broker appears after tier B, with a queues signal; destroyed, it is gone after tier C', async () => {
    const nodeId = saved.nodes[0]?.id as string;
    const client = managementClient(0);
    const createdAt = Date.now();
    await createQueues(client, [{ name: 'scrape.appears' }]);
    await eventually(
      'the new queue in queue_snapshot',
      async () => ((await snapshotNames(nodeId)).includes('scrape.appears') ? true : undefined),
      10 * TIER_B_MS,
    );
    expect(
      signals.some(
        (signal) => signal.topic === 'queues' && signal.clusterId === saved.clusterId && signal.at >= createdAt,
      ),
    ).toBe(true);
    const samples = await withClient(
      database.url,
      async (pgClient) =>
        (
          await pgClient.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM metric_sample m JOIN queue_snapshot s ON s.id = m.queue_id
            WHERE s.queue_name = 'scrape.appears'`,
          )
        ).rows[0]?.n,
    );
    expect(samples).toBeGreaterThan(0);

    const destroyedAt = new Date();
    await destroyQueues(client, ['scrape.appears']);
    await eventually(
      'the destroyed queue gone from queue_snapshot',
      async () => ((await snapshotNames(nodeId)).includes('scrape.appears') ? undefined : true),
      15_000,
    );
    // Removal is tier C's: a tier-C sweep of that node started after the destroy.
    const tierC = (await sweepRows()).find((row) => row.node_id === nodeId && row.tier === 'C');
    expect(tierC && tierC.last_started_at >= destroyedAt).toBe(true);
  });

  it('a stopped node keeps its last rows flagged stale while the other node stays fresh', async () => {
    const [live, stopped] = saved.nodes.map((node) => node.id) as [string, string];
    const before = await snapshotNames(stopped);
    expect(before.length).toBeGreaterThan(0);
    await topology.nodes[1]?.stop();
    await new Promise((resolve) => setTimeout(resolve, 3 * TIER_B_MS + 3_500));
    const rows = await eventually(
      'the stopped node flagged stale',
      async () => {
        const page = await readQueueRows(firstWorker().runtime.prisma, {
          clusterId: saved.clusterId,
          sort: { field: 'queueName', direction: 'asc' },
          page: 1,
          pageSize: 500,
        });
        return page.items.some((row) => row.nodeId === stopped && row.stale) ? page.items : undefined;
      },
      15_000,
    );
    const stoppedRows = rows.filter((row) => row.nodeId === stopped);
    expect(stoppedRows.map((row) => row.queueName).sort()).toEqual([...before].sort());
    expect(stoppedRows.every((row) => row.stale)).toBe(true);
    const liveRows = rows.filter((row) => row.nodeId === live);
    expect(liveRows.length).toBeGreaterThan(0);
    expect(liveRows.every((row) => !row.stale)).toBe(true);

    // The queue grid keeps the stopped node's cell, flagged, and marks the totals that include it.
    const shared = before.find((name) => liveRows.some((row) => row.queueName === name));
    if (!shared) throw new Error('no queue listed by both nodes');
    const grid = await readQueueGrid(firstWorker().runtime.db, {
      clusterId: saved.clusterId,
      queueName: shared,
      sort: { field: 'queueName', direction: 'asc' },
      page: 1,
      pageSize: 1,
    });
    expect(grid.items[0]).toMatchObject({ queueName: shared, nodesPresent: 2, nodesTotal: 2, stale: true });
    const cells = grid.items[0]?.cells ?? [];
    expect(cells.find((cell) => cell.nodeId === stopped)).toMatchObject({ stale: true, counted: true });
    expect(cells.find((cell) => cell.nodeId === live)).toMatchObject({ stale: false, counted: true });

    const sweeps = await readSweeps(firstWorker().runtime.prisma, saved.clusterId);
    expect(sweeps.filter((sweep) => sweep.nodeId === stopped && sweep.tier !== 'C').every((sweep) => sweep.stale)).toBe(
      true,
    );
    expect(sweeps.filter((sweep) => sweep.nodeId === live).every((sweep) => !sweep.stale)).toBe(true);
    expect(sweeps.find((sweep) => sweep.nodeId === stopped && sweep.tier === 'A')?.lastError).toMatch(
      /unreachable|timeout/,
    );

    const health = await scrapeHealth({
      instanceId: 'test',
      prisma: firstWorker().runtime.prisma,
      registry: firstWorker().runtime.registry,
    });
    expect(health.status).toBe('DEGRADED');
    expect(health.details.degraded).toEqual([topology.nodes[1]?.managementUrl]);
  });

  it('when the owner stops, the other instance takes the cluster over within a few ticks', async () => {
    const owner = [...ownerOf(await sweepRows())][0];
    const ownerIndex = workers.findIndex((worker) => worker.instanceId === owner);
    const other = workers[1 - ownerIndex] as WorkerInstance;
    await workers[ownerIndex]?.stop();
    const stoppedAt = new Date();
    await eventually(
      'a sweep by the other instance',
      async () => {
        const rows = (await sweepRows()).filter(
          (row) => row.node_id === saved.nodes[0]?.id && row.last_started_at > stoppedAt,
        );
        return rows.some((row) => row.instance_id === other.instanceId) ? true : undefined;
      },
      10_000,
    );
    const rows = (await sweepRows()).filter((row) => row.last_started_at > stoppedAt);
    expect(ownerOf(rows)).toEqual(new Set([other.instanceId]));
  });
});
