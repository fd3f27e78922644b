// The capture taps of a cluster with several workers on one database (issue 34, several instances): three workers,
// each a process of its own as the supervisor starts it (worker-process.ts), on one PostgreSQL and one cluster with a
// capture subscription. Asserted at the broker's door and in the database, not from Flotilla's bookkeeping:
// - exactly one consumer drains the tap's queue (Artemis's own consumer list, sampled), and it is held by the process
//   that holds the cluster's ownership lock (PostgreSQL's pg_locks), each traced to its process by its socket;
// - each message sent to the captured address is one row of message_index (none lost, none twice), and each row
//   carries the key a redelivered copy would share (the broker gives every copy its id of the original);
// - when the owner stops (SIGTERM, its shutdown runs), another worker drains the tap within a lease period, never
//   two at once, and the messages sent throughout, before, during and after, are each indexed once;
// - when the new owner dies (kill -9), the last worker drains the tap within a lease period, nothing is lost and
//   nothing is indexed twice: a copy whose row was committed in the instant before the kill and whose
//   acknowledgement never left comes again to the next drainer, whose writer skips it (its key is in the index).
// While the first test watches, every worker runs the reconcile job every two seconds (on the clusters it owns); for
// the take-overs the job's passes are an hour apart, so the take-over is the capture worker's own (a newly owned
// cluster gets a pass within a second). The broker is leased (workers die here, brokers do not); the tap's names are
// outside the lease's prefix, so the suite removes its tap itself once its workers are gone.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import type { BrokerNode } from '@test/artemis/index.ts';
import { sendOwnAmqpMessage } from '@test/amqp-annotated.ts';
import { createTestDatabase, queryDatabase, type TestDatabase } from '@test/database.ts';
import { eventually, sleep } from '@test/eventually.ts';
import { brokerMbean, jolokiaExec } from '@test/jolokia.ts';
import { createAnycastQueue } from '@test/native-test-helpers.ts';
import { saveCluster, storeSettings } from '@test/worker-kit.ts';
import { startWorkerProcess, workerHoldingPort, type WorkerProcess } from '@test/worker-process.ts';
import { lockKeyText } from '@/base/advisory-lock.ts';
import { captureWrites, listDiverts, ManagementClient } from '@/modules/platform/broker/index.ts';
import { loadDeploymentId } from './deployment-id.ts';
import { ownTapOf, tapNamesOf } from './tap-names.ts';

const TIER_A_MS = 1_000;
/**
 * One lease period for the taps: the ownership passes that hand the cluster on (two tier-A passes once its lock is
 * free), the capture worker's check of what it owns (a second), its pass (a second later) and the consumer's attach;
 * the slack is two busy cores.
 */
const LEASE_MS = 2 * TIER_A_MS + 2_000 + 6_000;
const INSTANCES = ['cap-east', 'cap-west', 'cap-north'] as const;

const broker = leaseSingleNode();
const node = broker.nodes[0] as BrokerNode;
const address = broker.name('captured.orders');
let database: TestDatabase;
let clusterId: string;
let subscriptionId: string;
let deploymentId: string;
const workers = new Map<string, WorkerProcess>();
const sent: string[] = [];
/** Numbers the messages of every flow: a test's retry sends new ids, never those of its first attempt. */
let sequence = 0;

const live = () => [...workers.values()];

/** What the broker holds on the subscription's tap queue: its consumers, each traced to the worker that holds it. */
interface TapConsumers {
  readonly count: number;
  /** Per consumer, the instance id of the worker whose socket is its connection, or `?` when none is. */
  readonly holders: readonly string[];
}

async function tapConsumers(): Promise<TapConsumers> {
  const base = tapNamesOf(deploymentId, address, subscriptionId).queue;
  const mbean = brokerMbean(node.name);
  const consumers = JSON.parse((await jolokiaExec(node, mbean, 'listAllConsumersAsJSON()', [])) as string) as {
    queueName?: string;
    connectionID?: string;
  }[];
  const connections = JSON.parse((await jolokiaExec(node, mbean, 'listConnectionsAsJSON()', [])) as string) as {
    connectionID?: string;
    clientAddress?: string;
  }[];
  const ports = new Map(
    connections.map((connection) => [
      String(connection.connectionID),
      Number(/:(\d+)$/.exec(connection.clientAddress ?? '')?.[1]),
    ]),
  );
  const own = consumers.filter((consumer) => consumer.queueName?.startsWith(base));
  const holders = own.map(
    (consumer) => workerHoldingPort(live(), ports.get(String(consumer.connectionID)) ?? 0)?.instanceId ?? '?',
  );
  return { count: own.length, holders };
}

/** The worker whose session holds the cluster's ownership lock (scrape/fair-share), traced by its socket. */
async function lockOwner(): Promise<string | undefined> {
  const rows = await queryDatabase<{ client_port: number | null }>(
    database.url,
    `SELECT activity.client_port
       FROM pg_locks held JOIN pg_stat_activity activity ON activity.pid = held.pid
      WHERE held.locktype = 'advisory' AND held.objsubid = 1 AND held.granted
        AND held.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND held.classid = ((hashtextextended($1, 0) >> 32) & 4294967295)::oid
        AND held.objid = (hashtextextended($1, 0) & 4294967295)::oid`,
    [lockKeyText('clusters.owner', clusterId)],
  );
  const port = rows[0]?.client_port;
  return port ? workerHoldingPort(live(), port)?.instanceId : undefined;
}

/** Waits until one consumer drains the tap, held by the cluster's owner: which worker that is. */
function oneDrainer(timeoutMs: number, notBy?: string): Promise<string> {
  return eventually(
    'one consumer on the tap, held by the cluster’s owner',
    async () => {
      const [consumers, owner] = await Promise.all([tapConsumers(), lockOwner()]);
      const [holder] = consumers.holders;
      if (consumers.count === 1 && holder === owner && holder !== notBy) return holder;
      // Not yet: named in the time-out's message, with what the reconciler last made of the subscription.
      const [subscription] = await queryDatabase<{ state: string; last_error: string | null }>(
        database.url,
        'SELECT state, last_error FROM sql_subscription WHERE id = $1',
        [subscriptionId],
      );
      throw new Error(
        `${String(consumers.count)} consumer(s) [${consumers.holders.join()}], owner ${String(owner)}, subscription ${String(subscription?.state)} ${String(subscription?.last_error)}`,
      );
    },
    timeoutMs,
    200,
  );
}

/** Samples the tap's consumers until stopped: what the broker showed at each sample. */
function sampleConsumers(): { stop(): Promise<TapConsumers[]> } {
  const samples: TapConsumers[] = [];
  const state = { running: true };
  const loop = (async () => {
    while (state.running) {
      samples.push(await tapConsumers().catch(() => ({ count: -1, holders: [] })));
      await sleep(150);
    }
  })();
  return {
    async stop() {
      state.running = false;
      await loop;
      return samples;
    },
  };
}

const endpoint = { host: '127.0.0.1', port: node.amqpPort, username: node.user, password: node.password };

async function send(ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    await sendOwnAmqpMessage(endpoint, address, { message_id: id, body: `order ${id}` });
    sent.push(id);
  }
}

/**
 * Sends until stopped, in `senders` loops at once, each message accepted by the broker before its loop sends the next:
 * several loops keep messages in the owner's hands at the moment it lets go.
 */
function keepSending(prefix: string, senders = 1): { stop(): Promise<number> } {
  const state = { running: true };
  let count = 0;
  const loops = Array.from({ length: senders }, async () => {
    while (state.running) {
      count += 1;
      await send([`${prefix}-${String(sequence++)}`]);
    }
  });
  return {
    async stop() {
      state.running = false;
      await Promise.all(loops);
      return count;
    },
  };
}

/** How often each message id stands in message_index for the subscription. */
async function indexedCounts(): Promise<Map<string, number>> {
  const rows = await queryDatabase<{ message_id: string; rows: string }>(
    database.url,
    'SELECT message_id, count(*) AS rows FROM message_index WHERE subscription_id = $1 GROUP BY message_id',
    [subscriptionId],
  );
  return new Map(rows.map((row) => [row.message_id, Number(row.rows)]));
}

/** Waits until every message sent is indexed; answers the ids indexed more than once. */
async function everySentIndexed(): Promise<string[]> {
  const counts = await eventually(
    'every message sent indexed',
    async () => {
      const counted = await indexedCounts();
      return sent.every((id) => counted.has(id)) ? counted : undefined;
    },
    30_000,
    250,
  );
  expect(counts.size).toBe(sent.length);
  return [...counts].filter(([, rows]) => rows > 1).map(([id]) => id);
}

async function start(instanceId: string): Promise<void> {
  workers.set(instanceId, await startWorkerProcess(database.url, instanceId));
}

beforeAll(async () => {
  database = await createTestDatabase();
  await storeSettings(database.url, {
    'scrape.tier-a-interval': `${String(TIER_A_MS)}ms`,
    'scrape.tier-b-interval': '10m',
    'scrape.tier-c-interval': '1h',
    // A killed worker counts as live for two of these: the orphan rule, not the count, must bring its cluster back.
    'broker.health.report-interval': '10s',
    // Every worker's job runs often: a worker that drained clusters it does not own would show in the first test.
    'sql.capture.reconcile-interval': '2s',
  });
  await createAnycastQueue(node, address);
  ({ clusterId } = await saveCluster(database.url, 'captured', [node], { asDiscovered: true }));
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  deploymentId = await loadDeploymentId(pool).finally(() => pool.end());
  subscriptionId = randomUUID();
  await queryDatabase(
    database.url,
    `INSERT INTO sql_subscription (id, cluster_id, address, mode) VALUES ($1, $2, $3, 'CAPTURE')`,
    [subscriptionId, clusterId, address],
  );
  // One after another: three starts at once on two cores only slow each other down.
  for (const instanceId of INSTANCES) await start(instanceId);
}, 600_000);

afterAll(async () => {
  await Promise.all(live().map((worker) => worker.stop()));
  const client = new ManagementClient({ url: node.managementUrl, user: node.user, password: node.password });
  try {
    for (const divert of await listDiverts(client).catch(() => [])) {
      const tap = ownTapOf(deploymentId, divert);
      if (tap?.queue.startsWith(tapNamesOf(deploymentId, address, subscriptionId).queue))
        await captureWrites.removeTap(client, tap);
    }
  } finally {
    client.close();
  }
  await database.drop();
  await broker.stop();
}, 120_000);

describe('the capture taps with three workers on one database', () => {
  it('are drained by one consumer, in the cluster’s owner, and each message is indexed once', async () => {
    const drainer = await oneDrainer(60_000);
    expect(INSTANCES).toContain(drainer);
    const sampling = sampleConsumers();
    await send(Array.from({ length: 40 }, () => `steady-${String(sequence++)}`));
    await sleep(3_000);
    const samples = await sampling.stop();
    expect(samples.length).toBeGreaterThan(10);
    expect(samples.filter((sample) => sample.count !== 1 || sample.holders[0] !== drainer)).toEqual([]);
    expect(await everySentIndexed()).toEqual([]);
    const [keyless] = await queryDatabase<{ rows: string }>(
      database.url,
      'SELECT count(*) AS rows FROM message_index WHERE subscription_id = $1 AND capture_key IS NULL',
      [subscriptionId],
    );
    expect(Number(keyless?.rows)).toBe(0);
    expect(await lockOwner()).toBe(drainer);
  }, 120_000);

  it('move to another worker within a lease period when the owner stops, nothing lost or indexed twice', async () => {
    // From here only what the capture worker sets off itself (a cluster newly owned) reconciles.
    await storeSettings(database.url, { 'sql.capture.reconcile-interval': '1h' }, { announce: true });
    const owner = await oneDrainer(30_000);
    const sampling = sampleConsumers();
    const sender = keepSending('stop', 4);
    await sleep(2_000);
    await workers.get(owner)?.stop();
    workers.delete(owner);
    const stoppedAt = Date.now();
    const next = await oneDrainer(LEASE_MS + 10_000, owner);
    const tookMs = Date.now() - stoppedAt;
    await sleep(2_000);
    const sentMeanwhile = await sender.stop();
    const samples = await sampling.stop();
    console.info(
      `[capture-instances] stop of ${owner}: ${next} drains after ${String(tookMs)} ms; ${String(sentMeanwhile)} sent meanwhile`,
    );
    expect(tookMs).toBeLessThan(LEASE_MS);
    expect(samples.filter((sample) => sample.count > 1)).toEqual([]);
    expect(await everySentIndexed()).toEqual([]);
  }, 120_000);

  it('move to the last worker within a lease period when the owner is killed, nothing lost or indexed twice', async () => {
    const owner = await oneDrainer(30_000);
    const sampling = sampleConsumers();
    // Four loops, as for the stop: more copies in the owner's hands when it dies, more of them redelivered.
    const sender = keepSending('kill', 4);
    await sleep(2_000);
    await workers.get(owner)?.kill();
    workers.delete(owner);
    const killedAt = Date.now();
    const next = await oneDrainer(LEASE_MS + 10_000, owner);
    const tookMs = Date.now() - killedAt;
    await sleep(2_000);
    const sentMeanwhile = await sender.stop();
    const samples = await sampling.stop();
    const twice = await everySentIndexed();
    // The writer's line for each batch it skipped copies of (logged at FLOTILLA_LOG_LEVEL=debug only).
    const skips = (workers.get(next)?.log ?? []).filter((line) => line.includes('already indexed, skipped'));
    console.info(
      `[capture-instances] kill -9 of ${owner}: ${next} drains after ${String(tookMs)} ms; ${String(sentMeanwhile)} sent meanwhile, ${String(twice.length)} indexed twice; skip lines seen: ${skips.join(' ') || 'none'}`,
    );
    expect(tookMs).toBeLessThan(LEASE_MS);
    expect(samples.filter((sample) => sample.count > 1)).toEqual([]);
    // Exactly once across a kill: the copies whose rows were committed as it came and whose acknowledgements never
    // left come again, and the next drainer's writer skips them.
    expect(twice).toEqual([]);
  }, 120_000);
});
