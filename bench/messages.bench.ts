// Native browse at the issue's scale on a real broker: a queue of 1,000 messages, each a 2 KB JSON body with five
// properties, browsed as one page of 1,000 through Flotilla's browse service (native channel, whole bodies, typed
// properties, every message through the content policy). Prints p50/p95 of the whole call and the bytes returned.
// Target (issue 19): < 1 s for 1,000 full messages (the per-broker console stops at 200 messages of 256 bytes).
//   npm run bench:messages        (PostgreSQL: FLOTILLA_TEST_ADMIN_URL, default postgres@127.0.0.1:5432)
import { randomUUID } from 'node:crypto';
import { startSingleNode, type BrokerNode } from '@test/artemis/index.ts';
import { createAnycastQueue } from '@test/native-test-helpers.ts';
import { timesMs, withBenchDatabase } from './bench-support.ts';
import { createDatabaseBus } from '../src/base/db/bus.ts';
import { InternalNotifications } from '../src/modules/kernel/core/index.ts';
import { browseMessages } from '../src/modules/feature/messages/server/browse-messages.ts';
import { sealPassword } from '../src/modules/platform/clusters/server/credentials/password-cipher.ts';
import { processKeys } from '../src/modules/platform/governance/index.ts';
import { reportFigure } from './report.ts';

const MESSAGES = 1_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const TARGET_MS = 1_000;
const QUEUE = 'bench.browse';

process.env.FLOTILLA_SECRET_KEY ??= Buffer.alloc(32, 9).toString('base64');

/** A 2 KB JSON order with nothing in it the policy's detectors would take for a card, a phone or a token. */
function body(index: number): string {
  const lines = Array.from({ length: 24 }, (_, line) => ({
    sku: `sku-${String(line)}`,
    quantity: line % 7,
    note: 'x'.repeat(40),
  }));
  return JSON.stringify({ order: `order-${String(index)}`, customer: 'bench', lines });
}

/** Fills the queue in bulk management POSTs of 250 sends. */
async function fill(node: BrokerNode): Promise<void> {
  const mbean = `org.apache.activemq.artemis:broker="${node.name}",component=addresses,address="${QUEUE}",subcomponent=queues,routing-type="anycast",queue="${QUEUE}"`;
  for (let start = 0; start < MESSAGES; start += 250) {
    const batch = Array.from({ length: Math.min(250, MESSAGES - start) }, (_, offset) => ({
      type: 'exec',
      mbean,
      operation: 'sendMessage(java.util.Map,int,java.lang.String,boolean,java.lang.String,java.lang.String)',
      arguments: [
        { region: 'eu', attempt: '1', source: 'bench', tenant: 'acme', kind: 'order' },
        3,
        body(start + offset),
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
    if (failed) throw new Error(`filling the queue: ${failed.error ?? String(failed.status)}`);
  }
}

const topology = await startSingleNode({ maxHeap: '512M' });
try {
  const node = topology.nodes[0] as BrokerNode;
  if (!node.managementUrl.startsWith('http://127.0.0.1:')) throw new Error('the benchmark talks to loopback only');
  await createAnycastQueue(node, QUEUE);
  await fill(node);

  await withBenchDatabase('bench-messages', async (db) => {
    const clusterId = randomUUID();
    const nodeId = randomUUID();
    const sealed = sealPassword(processKeys(), { clusterId, password: node.password });
    await db.query(
      `INSERT INTO cluster (id, name, username, password_cipher, password_key_id, updated_at)
       VALUES ($1, 'bench-messages', $2, $3, $4, now())`,
      [clusterId, node.user, sealed.cipher, sealed.keyId],
    );
    await db.query(
      `INSERT INTO cluster_node (id, cluster_id, management_url, amqp_url, broker_name, serving, role)
       VALUES ($1, $2, $3, $4, $5, true, 'PRIMARY')`,
      [nodeId, clusterId, node.managementUrl, node.amqpUrl, node.name],
    );
    // As the worker writes it while the node's notification subscription is live: browse goes native.
    await db.query(
      `INSERT INTO cluster_node_subscription (node_id, cluster_id, state, instance_id) VALUES ($1, $2, 'established', 'bench')`,
      [nodeId, clusterId],
    );
    const bus = createDatabaseBus(String(db.pool.options.connectionString), db.pool, 'bench-messages-bus');
    await bus.ready();
    try {
      const notifications = new InternalNotifications(bus);
      const runtime = { db, prisma: db.prisma, bus, notifications, settings: { value: () => undefined } };
      const browse = () =>
        browseMessages(runtime, {
          clusterId,
          ref: { address: QUEUE, queue: QUEUE, routingType: 'ANYCAST' },
          nodeId,
          page: 1,
          pageSize: MESSAGES,
          clear: false,
        });
      const check = await browse();
      const bytes = check.messages.reduce((sum, message) => sum + message.body.sizeBytes, 0);
      if (check.channel !== 'native' || check.messages.length !== MESSAGES)
        throw new Error(
          `expected ${String(MESSAGES)} messages natively, got ${String(check.messages.length)} over ${check.channel}`,
        );
      const { p50, p95 } = await timesMs(browse, RUNS);
      console.log(
        `Native browse of ${String(MESSAGES)} full messages (${(bytes / 1024).toFixed(0)} KB of bodies, five properties each, ` +
          `through the content policy), ${String(RUNS)} runs: p50 ${p50.toFixed(0)} ms  p95 ${p95.toFixed(0)} ms ` +
          `(target < ${String(TARGET_MS)} ms): ${p95 < TARGET_MS ? 'met' : 'MISSED'}`,
      );
      reportFigure({
        id: 'messages.browse-1000-p95',
        figure: `Native browse of ${MESSAGES.toLocaleString('en')} full messages (2 KB JSON bodies, five properties) through the content policy, one page, ${String(RUNS)} runs`,
        target: `< ${String(TARGET_MS / 1_000)} s`,
        seen: `p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms`,
        holds: p95 < TARGET_MS,
      });
    } finally {
      await bus.close();
    }
  });
} finally {
  await topology.stop();
}
