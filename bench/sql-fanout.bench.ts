// The SQL console's live fan-out at the issue's scale on real brokers: a two-node cluster, each node behind a proxy
// that counts the management POSTs reaching it, ten addresses `bench.orders.<n>` with a queue on both nodes, each
// queue holding 500 messages (a `region` property, half 'eu'). The queue listing comes from one sweep of the real
// worker's scrape (through the proxies, as production registers them); the worker is stopped before the reads.
// A clear view of `... WHERE properties.region = 'eu'` pushes the property down as a selector, so each node answers
// 250 matches a queue in pages of 100: three pages. Prints the rows, the pages per node, the POSTs the proxies
// counted per node and per page (target, issue 29: exactly 1 POST per node per page), and p50/p95 of the query.
//   node --import tsx bench/sql-fanout.bench.ts        (PostgreSQL: FLOTILLA_TEST_ADMIN_URL, default postgres@127.0.0.1:5432)
import { startCluster, type BrokerNode } from '@test/artemis/index.ts';
import { startCountingProxy, type CountingProxy } from '@test/counting-proxy.ts';
import { createAnycastQueue } from '@test/native-test-helpers.ts';
import { saveCluster, startWorker, storeSettings } from '@test/worker-kit.ts';
import { timesMs, withBenchDatabase } from './bench-support.ts';
import { createDatabaseBus } from '../src/base/db/bus.ts';
import type { SettingDeclaration } from '../src/modules/kernel/plugin/index.ts';
import { runQuery } from '../src/modules/feature/sql/server/run-query.ts';
import { SQL_SETTING_KEYS } from '../src/modules/feature/sql/server/sql.settings.ts';
import { reportFigure } from './report.ts';

const ADDRESSES = 10;
const MESSAGES_PER_QUEUE = 500;
/** live-read.ts asks each queue for this many messages per POST. */
const PAGE_SIZE = 100;
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const SQL = `SELECT id, node, properties.region FROM "bench.orders.*" WHERE properties.region = 'eu'`;
const addresses = Array.from({ length: ADDRESSES }, (_, index) => `bench.orders.${String(index)}`);
const matchesPerQueue = MESSAGES_PER_QUEUE / 2;
// A page shorter than PAGE_SIZE ends a queue's read; a full last page costs one more (empty) page.
const expectedPages = Math.floor(matchesPerQueue / PAGE_SIZE) + 1;
const expectedRows = ADDRESSES * 2 * matchesPerQueue;

/** Fills one queue in bulk management POSTs of 250 sends, every other message region 'eu'. */
async function fill(node: BrokerNode, queue: string): Promise<void> {
  const mbean = `org.apache.activemq.artemis:broker="${node.name}",component=addresses,address="${queue}",subcomponent=queues,routing-type="anycast",queue="${queue}"`;
  for (let start = 0; start < MESSAGES_PER_QUEUE; start += 250) {
    const batch = Array.from({ length: Math.min(250, MESSAGES_PER_QUEUE - start) }, (_, offset) => ({
      type: 'exec',
      mbean,
      operation: 'sendMessage(java.util.Map,int,java.lang.String,boolean,java.lang.String,java.lang.String)',
      arguments: [
        { region: (start + offset) % 2 === 0 ? 'eu' : 'us', kind: 'order' },
        3,
        JSON.stringify({ order: start + offset, queue }),
        true,
        node.user,
        node.password,
      ],
    }));
    const response = await fetch(node.managementUrl, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Origin: new URL(node.managementUrl).origin,
        Authorization: `Basic ${Buffer.from(`${node.user}:${node.password}`).toString('base64')}`,
      },
      body: JSON.stringify(batch),
    });
    const replies = (await response.json()) as Array<{ status: number; error?: string }>;
    const failed = replies.find((reply) => reply.status !== 200);
    if (failed) throw new Error(`filling ${queue}: ${failed.error ?? String(failed.status)}`);
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const cluster = await startCluster({ maxHeap: '512M' });
const proxies: CountingProxy[] = [];
try {
  const nodes = cluster.nodes as [BrokerNode, BrokerNode];
  if (!nodes.every((node) => node.managementUrl.startsWith('http://127.0.0.1:')))
    throw new Error('the benchmark talks to loopback only');
  for (const node of nodes) proxies.push(await startCountingProxy(node.managementUrl));

  const setupStarted = performance.now();
  for (const node of nodes)
    for (const address of addresses) {
      await createAnycastQueue(node, address);
      await fill(node, address);
    }
  console.log(
    `${String(ADDRESSES)} addresses × 2 nodes × ${String(MESSAGES_PER_QUEUE)} messages made in ` +
      `${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
  );

  await withBenchDatabase('bench-sql-fanout', async (db) => {
    const { connectionString } = (db.pool as unknown as { options: { connectionString: string } }).options;
    // Registered behind the proxies, so every management call Flotilla makes is counted at the node's door.
    const behindProxies = nodes.map((node, index) => ({ ...node, managementUrl: proxies[index]?.url ?? '' }));
    await storeSettings(connectionString, {
      'scrape.tier-a-interval': '1s',
      'scrape.tier-b-interval': '1s',
      'scrape.tier-c-interval': '2s',
    });
    const worker = await startWorker(connectionString, 'bench-sql-fanout');
    const sweepStarted = performance.now();
    let clusterId: string;
    try {
      ({ clusterId } = await saveCluster(connectionString, 'bench-sql-fanout', behindProxies, { asDiscovered: true }));
      await worker.runtime.notifications.publish('ClusterRegistered', {
        clusterId,
        name: 'bench-sql-fanout',
        environmentId: null,
      });
      // Both nodes serving and all 20 queues listed with their depth by the scrape.
      await until(
        'the scrape to list every queue on both serving nodes',
        async () => {
          const [listed] = await db.query<{ queues: number; serving: number }>(
            `SELECT (SELECT count(*)::int FROM queue_snapshot
                      WHERE cluster_id = $1 AND address LIKE 'bench.orders.%' AND message_count = $2) AS queues,
                    (SELECT count(*)::int FROM cluster_node WHERE cluster_id = $1 AND serving) AS serving`,
            [clusterId, MESSAGES_PER_QUEUE],
          );
          return listed?.queues === ADDRESSES * 2 && listed.serving === 2 ? true : undefined;
        },
        120_000,
      );
    } finally {
      await worker.stop();
    }
    console.log(`queue listing in queue_snapshot after ${((performance.now() - sweepStarted) / 1000).toFixed(1)} s`);

    const bus = createDatabaseBus(connectionString, db.pool, 'bench-sql-fanout-bus');
    await bus.ready();
    try {
      // The default row cap (1,000) would stop the read early; raised so every page of every queue is read.
      const raised: Record<string, number> = { [SQL_SETTING_KEYS.rowCap]: expectedRows * 2 };
      const runtime = {
        db,
        prisma: db.prisma,
        bus,
        settings: {
          value: () => undefined,
          integer: (setting: SettingDeclaration<'integer'>) => raised[setting.key] ?? Number(setting.defaultValue),
          duration: () => 60_000,
        },
      };
      const query = () => runQuery(runtime, { clusterId, sql: SQL, source: 'live', clear: true });
      proxies.forEach((proxy) => proxy.reset());
      const check = await query();
      const checkPosts = proxies.map((proxy) => proxy.posts.length);
      if (check.selector === null || check.residual)
        throw new Error(`expected the property pushed down: selector ${String(check.selector)}`);
      if (check.rows.length !== expectedRows || check.bounds.length > 0)
        throw new Error(
          `expected ${String(expectedRows)} rows and no bound, got ${String(check.rows.length)} rows, bounds: ` +
            check.bounds.map((bound) => bound.words).join(' '),
        );
      if (check.rows.some((row) => row['properties.region'] !== 'eu')) throw new Error('a row is not in eu');
      const pages = (check.nodes ?? []).map((node) => node.posts);

      proxies.forEach((proxy) => proxy.reset());
      const { p50, p95 } = await timesMs(query, RUNS);
      const queries = RUNS + 1;
      const postsPerNode = proxies.map((proxy) => proxy.posts.length / queries);
      const browsePostsPerNode = proxies.map((proxy) => proxy.count('browse') / queries);
      const perPage = postsPerNode.map((posts) => posts / expectedPages);
      const met = perPage.every((n) => n === 1) && pages.every((n) => n === expectedPages);
      const fixed = (values: number[]) => values.map((n) => n.toFixed(2)).join(', ');
      const read = (check.nodes ?? []).map((node) => `${String(node.queues)} queues on ${node.nodeName}`).join(', ');
      console.log(
        [
          '',
          SQL,
          `  clear view: selector ${JSON.stringify(check.selector)}, residual ${String(check.residual)}`,
          `  rows ${String(check.rows.length)} (scanned ${String(check.scanned)}) from ${read}`,
          `  pages per node: ${pages.join(', ')} (expected ${String(expectedPages)}: ` +
            `${String(matchesPerQueue)} matches a queue, ${String(PAGE_SIZE)} a page)`,
          `  POSTs counted by the proxies per node, first query (clients warm from the sweep): ${checkPosts.join(', ')}; ` +
            `per query over the next ${String(queries)}: ${fixed(postsPerNode)} (with a browse: ${fixed(browsePostsPerNode)})`,
          `  POSTs per node per page: ${fixed(perPage)} (target exactly 1): ${met ? 'met' : 'MISSED'}`,
          `  whole query, ${String(RUNS)} runs: p50 ${p50.toFixed(0)} ms  p95 ${p95.toFixed(0)} ms`,
        ].join('\n'),
      );
      const fanOut = `Live SQL fan-out over ${String(ADDRESSES)} addresses on 2 real nodes (${String(MESSAGES_PER_QUEUE)} messages a queue, half region = 'eu'), the property pushed down as a selector (clear view): ${expectedRows.toLocaleString('en')} rows, ${String(expectedPages)} pages a node`;
      reportFigure({
        id: 'sql-fanout.posts-per-page',
        figure: `${fanOut}: management POSTs per node per page, ${String(queries)} queries`,
        target: '1 management POST per node per page',
        seen: `${fixed(perPage)} (${fixed(postsPerNode)} POSTs a node per query)`,
        holds: met,
      });
      reportFigure({
        id: 'sql-fanout.query-p95',
        figure: `${fanOut}: the whole query, ${String(RUNS)} runs`,
        target: '—',
        seen: `p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms`,
      });
    } finally {
      await bus.close();
    }
  });
} finally {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await cluster.stop();
}
