// Issue 34, several instances: three Flotilla instances, each as `npm start` runs it (supervisor, web, worker), on one
// PostgreSQL, with three clusters. Asserted in the database and at the brokers' door:
// - the clusters are split between the workers, one each (scrape/server/fair-share.ts);
// - each cluster's management calls come from one worker: per node, the POSTs of a window are those of one scraper
//   (the same count as a single instance makes), never doubled;
// - kill -9 of the worker that scrapes a cluster: the cluster is swept again within one lease period (two passes;
//   its session locks die with it), and once the supervisor's new worker is up the share is one each again.
// The three clusters point at one broker of the file's own (a kill test keeps its own, ADR 20), each through its own
// counting proxy so that each is a node of its own at the door. An e2e file: it starts the app's production build.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppPool, isAlive, type AppProcess, type ProcessInfo } from '@test/app-process.ts';
import { startSingleNode, type Topology } from '@test/artemis/index.ts';
import { startCountingProxy, type CountingProxy } from '@test/counting-proxy.ts';
import { createTestDatabase, queryDatabase, type TestDatabase } from '@test/database.ts';
import { eventually } from '@test/eventually.ts';
import { saveCluster, storeSettings, TEST_SECRET_KEY } from '@test/worker-kit.ts';

const INSTANCES = ['east', 'west', 'north'] as const;
const PASS_MS = 1_000;
/** One lease period: two ownership passes, a pass's own time and the sweep that shows the new owner. */
const LEASE_MS = 2 * PASS_MS + 4_000;

const pool = new AppPool();
let database: TestDatabase;
let broker: Topology;
const proxies: CountingProxy[] = [];
const clusters: { id: string; nodeId: string; proxy: CountingProxy }[] = [];
const apps = new Map<string, AppProcess>();

interface SweepRow {
  readonly node_id: string;
  readonly instance_id: string;
  readonly last_started_at: Date;
}

const sweepsSince = (since: Date) =>
  queryDatabase<SweepRow>(
    database.url,
    'SELECT node_id, instance_id, last_started_at FROM scrape_sweep WHERE last_started_at > $1',
    [since],
  );

/** Per node, the instances whose sweeps started after `since`. */
async function sweepersSince(since: Date): Promise<Map<string, Set<string>>> {
  const byNode = new Map<string, Set<string>>(clusters.map((cluster) => [cluster.nodeId, new Set()]));
  for (const row of await sweepsSince(since)) byNode.get(row.node_id)?.add(row.instance_id);
  return byNode;
}

/** Once every node is swept by exactly one instance, a different one each: which. */
function splitOneEach(since: Date, timeoutMs: number): Promise<Map<string, string>> {
  return eventually(
    'each cluster scraped by a worker of its own',
    async () => {
      const sweepers = await sweepersSince(since);
      const owners = [...sweepers.values()].map((instances) => [...instances]);
      const one = owners.every((instances) => instances.length === 1);
      const distinct = new Set(owners.flat()).size === clusters.length;
      return one && distinct
        ? new Map([...sweepers].map(([nodeId, instances]) => [nodeId, [...instances][0] ?? '']))
        : undefined;
    },
    timeoutMs,
  );
}

function workerOf(instance: string): ProcessInfo {
  const found = apps.get(instance)?.childRunning('worker-main.mjs');
  if (!found) throw new Error(`no worker under ${instance}`);
  return found;
}

beforeAll(async () => {
  [broker, database] = await Promise.all([startSingleNode(), createTestDatabase()]);
  await storeSettings(database.url, {
    'scrape.tier-a-interval': `${PASS_MS}ms`,
    'scrape.tier-b-interval': '2s',
    'scrape.tier-c-interval': '10s',
    // A killed worker counts as live for two of these: the orphan rule, not the count, must bring its cluster back.
    'broker.health.report-interval': '10s',
  });
  const [node] = broker.nodes;
  if (!node) throw new Error('no broker node');
  for (const name of ['fleet-a', 'fleet-b', 'fleet-c']) {
    const proxy = await startCountingProxy(node.managementUrl);
    proxies.push(proxy);
    const saved = await saveCluster(database.url, name, [{ ...node, managementUrl: proxy.url }]);
    clusters.push({ id: saved.clusterId, nodeId: saved.nodes[0]?.id ?? '', proxy });
  }
  // One after another: three app starts at once on two cores only slow each other down.
  for (const instance of INSTANCES)
    apps.set(
      instance,
      // One key for every instance, as docs/several-instances.md says: the clusters' passwords are sealed with it.
      await pool.startReady({
        env: { DATABASE_URL: database.url, FLOTILLA_INSTANCE_ID: instance, FLOTILLA_SECRET_KEY: TEST_SECRET_KEY },
      }),
    );
}, 600_000);

afterAll(async () => {
  await pool.destroyAll();
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await broker.stop();
  await database.drop();
}, 120_000);

describe('three instances on one database', () => {
  it('split the clusters between their workers, one each, and call each node as one scraper does', async () => {
    // The first worker up took all three; the others' share comes within three passes of theirs.
    const owners = await splitOneEach(new Date(), 60_000);
    expect(new Set(owners.values())).toEqual(new Set(INSTANCES));
    // Per node over ten seconds: the POSTs of one scraper (tier A every second, B every two, C every ten: 18–20 seen),
    // where two scrapers of one cluster would double them.
    for (const proxy of proxies) proxy.reset();
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    for (const proxy of proxies) {
      const posts = proxy.posts.length;
      expect(posts).toBeGreaterThanOrEqual(8);
      expect(posts).toBeLessThanOrEqual(26);
    }
  }, 120_000);

  it('kill -9 of a worker: its cluster is scraped again within one lease period, then one each again', async () => {
    const owners = await splitOneEach(new Date(), 30_000);
    const [orphanNode, victim] = [...owners].find(([, instance]) => instance === 'west') ?? [];
    if (!orphanNode || !victim) throw new Error('west scrapes nothing');
    const killed = workerOf(victim);
    process.kill(killed.pid, 'SIGKILL');
    const killedAt = Date.now();
    await eventually('the worker gone', () => !isAlive(killed) || undefined, 5_000);
    await eventually(
      'the orphan swept again',
      async () => (await sweepsSince(new Date(killedAt))).some((row) => row.node_id === orphanNode) || undefined,
      30_000,
    );
    expect(Date.now() - killedAt).toBeLessThan(LEASE_MS + 2_000);
    // The supervisor brings a new worker up under west, and the share evens out again: one cluster each. (The
    // survivor that took the orphan may hand it on to the new worker meanwhile: one owner after another, never two
    // at once, as the ownership lock allows only one.)
    await eventually(
      'a new worker under west',
      () => {
        const now = apps.get('west')?.childRunning('worker-main.mjs');
        return now && now.pid !== killed.pid ? now : undefined;
      },
      60_000,
    );
    const evened = await splitOneEach(new Date(), 60_000);
    expect(new Set(evened.values())).toEqual(new Set(INSTANCES));
  }, 180_000);
});
