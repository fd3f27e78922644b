// The cost of previewing a fleet-wide redrive on real brokers: a two-node cluster, each node behind a proxy that
// counts the management POSTs reaching it, 50 dead-letter queues on both nodes (messages from 25 original
// addresses in them), one redrive dry run over all 50 (half of them by one original address). Prints the POSTs
// per node (target, issue 19: one management POST per node) and the time the preview took.
//   npm run bench:redrive        (PostgreSQL: FLOTILLA_TEST_ADMIN_URL, default postgres@127.0.0.1:5432)
import { InternalNotifications } from '../src/modules/kernel/core/index.ts';
import { randomUUID } from 'node:crypto';
import { startCluster, type BrokerNode } from '@test/artemis/index.ts';
import { startCountingProxy, type CountingProxy } from '@test/counting-proxy.ts';
import { createAnycastQueue, sendManyMessages } from '@test/native-test-helpers.ts';
import { withBenchDatabase } from './bench-support.ts';
import { createDatabaseBus } from '../src/base/db/bus.ts';
import { redriveDeadLetters } from '../src/modules/feature/queues/server/dead-letters.ts';
import { sealPassword } from '../src/modules/platform/clusters/server/credentials/password-cipher.ts';
import { processKeys } from '../src/modules/platform/governance/index.ts';
import { reportFigure } from './report.ts';

const DEAD_LETTER_QUEUES = 50;
const TARGET_POSTS_PER_NODE = 1;

process.env.FLOTILLA_SECRET_KEY ??= Buffer.alloc(32, 9).toString('base64');

const cluster = await startCluster();
const proxies: CountingProxy[] = [];
try {
  const nodes = cluster.nodes as [BrokerNode, BrokerNode];
  if (!nodes.every((node) => node.managementUrl.startsWith('http://127.0.0.1:')))
    throw new Error('the benchmark talks to loopback only');
  for (const node of nodes) proxies.push(await startCountingProxy(node.managementUrl));
  const queues = Array.from({ length: DEAD_LETTER_QUEUES }, (_, index) => `bench.dlq.${String(index)}`);
  for (const node of nodes) {
    for (const [index, queue] of queues.entries()) {
      await createAnycastQueue(node, queue);
      await sendManyMessages(node, queue, 4, (message) => ({
        _AMQ_ORIG_ADDRESS: `bench.orders.${String((index + message) % 25)}`,
      }));
    }
  }

  await withBenchDatabase('bench-redrive', async (db) => {
    const clusterId = randomUUID();
    const sealed = sealPassword(processKeys(), { clusterId, password: nodes[0].password });
    await db.query(
      `INSERT INTO cluster (id, name, username, password_cipher, password_key_id, updated_at)
       VALUES ($1, 'bench-redrive', $2, $3, $4, now())`,
      [clusterId, nodes[0].user, sealed.cipher, sealed.keyId],
    );
    for (const [index, node] of nodes.entries()) {
      await db.query(
        `INSERT INTO cluster_node (id, cluster_id, management_url, broker_name, serving, role)
         VALUES ($1, $2, $3, $4, true, 'PRIMARY')`,
        [randomUUID(), clusterId, proxies[index]?.url, node.name],
      );
    }
    // As the scrape leaves them once the brokers' address settings named these addresses dead-letter addresses.
    for (const queue of queues) {
      await db.query(
        `INSERT INTO queue_total (cluster_id, address, queue_name, routing_type, message_count, consumer_count,
           delivering_count, messages_added, messages_acked, messages_expired, nodes_present, paused, internal,
           dead_letter, scraped_at)
         VALUES ($1, $2, $2, 'ANYCAST', 8, 0, 0, 8, 0, 0, 2, false, false, true, now())`,
        [clusterId, queue],
      );
    }
    const bus = createDatabaseBus(String(db.pool.options.connectionString), db.pool, 'bench-redrive-bus');
    await bus.ready();
    try {
      const runtime = {
        db,
        prisma: db.prisma,
        bus,
        notifications: new InternalNotifications(bus),
        settings: { value: () => undefined, integer: () => 1_000, duration: () => 5_000 },
      };
      const request = { requestId: 'bench-redrive', actor: { name: 'bench', userId: null }, sourceIp: '127.0.0.1' };
      const items = queues.map((queueName, index) =>
        index % 2 === 0 ? { queueName } : { queueName, originalAddress: `bench.orders.${String(index % 25)}` },
      );
      // The broker MBean name is looked up once per node and kept: not part of what a preview costs.
      await redriveDeadLetters(runtime, request, { clusterId, items: items.slice(0, 1), dryRun: true });
      proxies.forEach((proxy) => proxy.reset());
      const started = performance.now();
      const preview = await redriveDeadLetters(runtime, request, { clusterId, items, dryRun: true });
      const elapsed = performance.now() - started;
      const perNode = proxies.map((proxy) => proxy.posts.length);
      console.log(
        `Dry run of a redrive over ${String(DEAD_LETTER_QUEUES)} dead-letter queues on ${String(nodes.length)} nodes ` +
          `(${String(preview.affectedCount)} messages would go back): ${elapsed.toFixed(0)} ms, management POSTs per node: ` +
          `${perNode.join(', ')} (target ${String(TARGET_POSTS_PER_NODE)}): ` +
          (perNode.every((posts) => posts === TARGET_POSTS_PER_NODE) ? 'met' : 'MISSED'),
      );
      reportFigure({
        id: 'redrive.dry-run-posts',
        figure: `Dry run of a redrive over ${String(DEAD_LETTER_QUEUES)} dead-letter queues on ${String(nodes.length)} real nodes (half by original address)`,
        target: `${String(TARGET_POSTS_PER_NODE)} management POST per node`,
        seen: `${perNode.join(' and ')} POSTs per node, ${elapsed.toFixed(0)} ms`,
        holds: perNode.every((posts) => posts === TARGET_POSTS_PER_NODE),
      });
    } finally {
      await bus.close();
    }
  });
} finally {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await cluster.stop();
}
