// Queue operations on a real two-node cluster through the broker command sequence: a dry run changes nothing and is
// audited as one; 1,500 messages against the cap of 1,000 are refused (audited) and go with override; a move by
// filter while one node is killed mid-way gives that node's outcome in the audit and, once it is back, the message
// ids of both queues on both nodes are exactly the ids sent (nothing lost, nothing doubled); a retry from the DLQ
// lands on the original address; when the audit row cannot be written, the broker is not touched. The address and
// connection operations of the resources module run on the same sequence and are tried here on the same cluster.
// An override that is not a boolean is refused before the broker is asked anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type BrokerNode, type Topology } from '@test/artemis/index.ts';
import { startHaScenario, type HaScenario } from '@test/worker-kit.ts';
import { brokerMbean, jolokia } from '@test/jolokia.ts';
import { openOwnConsumer } from '@test/named-client.ts';
import { createAnycastQueue, messageCount, sendManyMessages, uniqueName, waitFor } from '@test/native-test-helpers.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import type { RestCall } from '@test/rest-call.ts';
import type { WebRuntime } from '@/server/runtime/web-runtime.ts';

let cluster: Topology;
let nodes: [BrokerNode, BrokerNode];
let scenario: HaScenario;
let secured: SecuredRuntime;
let web: WebRuntime;
let call: RestCall;

interface NodeResult {
  nodeId: string;
  nodeName: string;
  outcome: string;
  estimate: number | null;
  count: number | null;
  failure: { kind: string; message: string } | null;
}
interface CommandResult {
  auditId: string;
  outcome: string;
  dryRun: boolean;
  affectedCount: number;
  appliedCount: number;
  cap: number | null;
  nodes: NodeResult[];
}

const queuePath = (queue: string, action: string) =>
  `/clusters/${scenario.clusterId}/queues/${encodeURIComponent(queue)}/${action}`;

const queueMbean = (node: BrokerNode, queue: string) =>
  `${brokerMbean(node.name)},component=addresses,address="${queue}",subcomponent=queues,routing-type="anycast",queue="${queue}"`;

/** The `uid` of every message in the queue, read by the broker itself (browse pages: listMessages stops at 200). */
async function uidsIn(node: BrokerNode, queue: string): Promise<string[]> {
  const uids: string[] = [];
  for (let page = 1; ; page++) {
    const rows = (await jolokia(
      node,
      {
        type: 'exec',
        mbean: queueMbean(node, queue),
        operation: 'browse(int,int,java.lang.String)',
        arguments: [page, 1_000, ''],
      },
      60_000,
    )) as Array<{ StringProperties?: Record<string, string> }>;
    uids.push(...rows.map((row) => String(row.StringProperties?.uid)));
    if (rows.length < 1_000) return uids;
  }
}

async function queueOnBoth(name: string) {
  for (const node of nodes) await createAnycastQueue(node, name);
  await waitFor(
    `${name} in the grid on both nodes`,
    async () => {
      const { status, json } = await call<{ nodesPresent: number }>(
        'GET',
        `/clusters/${scenario.clusterId}/queues/${encodeURIComponent(name)}`,
      );
      return status === 200 && json.nodesPresent === 2 ? true : undefined;
    },
    30_000,
  );
}

const auditRow = (id: string) => web.prisma.auditEvent.findUniqueOrThrow({ where: { id } });

beforeAll(async () => {
  cluster = await startCluster();
  nodes = cluster.nodes as [BrokerNode, BrokerNode];
  scenario = await startHaScenario('queue-actions', cluster, 1_000, { tierB: '1s', tierC: '1h' });
  secured = await openSecuredRuntime({ databaseUrl: scenario.databaseUrl, instanceId: 'queue-actions-web' });
  ({ runtime: web } = secured);
  ({ call } = await secured.signedIn());
}, 240_000);

afterAll(async () => {
  await secured.close();
  await scenario.stop();
});

describe('queue operations on a real cluster', () => {
  it('previews a purge per node, changes nothing, and audits it as a dry run', async () => {
    const queue = uniqueName('act.dry');
    await queueOnBoth(queue);
    await sendManyMessages(nodes[0], queue, 3);
    await sendManyMessages(nodes[1], queue, 2);

    const { status, json } = await call<CommandResult>('POST', `${queuePath(queue, 'purge')}?dryRun=true`, {});
    expect(status).toBe(200);
    expect(json).toMatchObject({ outcome: 'WOULD_APPLY', dryRun: true, affectedCount: 5, appliedCount: 0, cap: 1000 });
    expect(json.nodes.map((node) => [node.outcome, node.estimate]).sort()).toEqual([
      ['WOULD_APPLY', 2],
      ['WOULD_APPLY', 3],
    ]);
    expect([await messageCount(nodes[0], queue), await messageCount(nodes[1], queue)]).toEqual([3, 2]);
    const row = await auditRow(json.auditId);
    expect(row).toMatchObject({ action: 'queue.purge', dryRun: true, outcome: 'SUCCEEDED', target: queue });
    expect(JSON.stringify(row.nodeDetail)).toContain('WOULD_APPLY');
  });

  it('refuses an override that is not a boolean ("false", "no", [], {}) with 400: 8 messages stay under a cap of 5', async () => {
    const queue = uniqueName('act.flag');
    await queueOnBoth(queue);
    await sendManyMessages(nodes[0], queue, 8);
    expect((await call('PUT', '/settings/safety.bulk-cap', { value: 5 })).status).toBe(200);
    try {
      for (const override of ['false', 'no', [], {}]) {
        const refused = await call<{ errors?: { field: string }[] }>('POST', queuePath(queue, 'purge'), { override });
        expect(refused.status, JSON.stringify(override)).toBe(400);
        expect(refused.json.errors).toContainEqual(expect.objectContaining({ field: 'override' }));
      }
      expect((await call('POST', queuePath(queue, 'purge'), { override: false })).status).toBe(422);
      expect(await messageCount(nodes[0], queue)).toBe(8);
    } finally {
      await call('PUT', '/settings/safety.bulk-cap', { value: 1_000 });
    }
  });

  it('refuses 1,500 messages over the cap of 1,000 (audited), and purges them with override', async () => {
    const queue = uniqueName('act.cap');
    await queueOnBoth(queue);
    await sendManyMessages(nodes[0], queue, 1_500);

    const refused = await call<{ type: string; affectedCount: number; cap: number; auditId: string }>(
      'POST',
      queuePath(queue, 'purge'),
      {},
    );
    expect(refused.status).toBe(422);
    expect(refused.json).toMatchObject({ affectedCount: 1_500, cap: 1_000 });
    expect(refused.json.type).toContain('bulk-cap-exceeded');
    expect(await messageCount(nodes[0], queue)).toBe(1_500);
    expect(await auditRow(refused.json.auditId)).toMatchObject({ outcome: 'REFUSED', dryRun: false });

    const done = await call<CommandResult>('POST', `${queuePath(queue, 'purge')}?override=true`, {});
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({ outcome: 'SUCCEEDED', appliedCount: 1_500 });
    expect(await messageCount(nodes[0], queue)).toBe(0);
    const row = await auditRow(done.json.auditId);
    expect(row.outcome).toBe('SUCCEEDED');
    expect(row.parameters).toMatchObject({ override: true });
    // The real run taught the capability ledger that writes work.
    const ledger = await web.prisma.clusterCapability.findUniqueOrThrow({
      where: { clusterId_capability: { clusterId: scenario.clusterId, capability: 'MANAGEMENT_WRITE' } },
    });
    expect(ledger).toMatchObject({ value: 'AVAILABLE', confirmedBy: 'command' });
  });

  it('retries dead letters of one original address back to it', async () => {
    const queue = uniqueName('act.retry');
    await queueOnBoth(queue);
    await sendManyMessages(nodes[0], queue, 3);
    const total = async () =>
      (await Promise.all(nodes.map((node) => messageCount(node, queue)))).reduce((a, b) => a + b);
    await waitFor('the three messages on the queue', async () => ((await total()) === 3 ? true : undefined));
    // Dead-letter them wherever the cluster routed them; a node whose count has not caught up is asked again
    // (sending everything there to the DLQ twice is harmless). MessageCount follows a moment later.
    await waitFor(
      'the queue emptied into the DLQ',
      async () => {
        const counts = await Promise.all(nodes.map((node) => messageCount(node, queue)));
        if (counts.every((count) => count === 0)) return true;
        for (const [index, node] of nodes.entries()) {
          if ((counts[index] ?? 0) === 0) continue;
          await jolokia(node, {
            type: 'exec',
            mbean: queueMbean(node, queue),
            operation: 'sendMessagesToDeadLetterAddress(java.lang.String)',
            arguments: [''],
          });
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
        return undefined;
      },
      60_000,
    );
    await waitFor(
      'the DLQ in the grid',
      async () => {
        const { status } = await call('GET', `/clusters/${scenario.clusterId}/queues/DLQ`);
        return status === 200 ? true : undefined;
      },
      60_000,
    );

    // The source queue's count drops before the DLQ's listing holds all three: wait for the preview to see them.
    const preview = await waitFor('the three dead letters counted on the DLQ', async () => {
      const answer = await call<CommandResult>('POST', `${queuePath('DLQ', 'messages/retry')}?dryRun=true`, {
        originalAddress: queue,
      });
      return answer.status === 200 && answer.json.affectedCount === 3 ? answer : undefined;
    });
    expect(preview.json.dryRun).toBe(true);
    const retried = await call<CommandResult>('POST', queuePath('DLQ', 'messages/retry'), { originalAddress: queue });
    expect(retried.status).toBe(200);
    expect(retried.json.appliedCount).toBe(3);
    // Back on their address: the cluster may route a retried message to the queue on either node.
    await waitFor('the messages back on their queue', async () => ((await total()) === 3 ? true : undefined));
  });

  it('refuses a filter and ids together, and ids without their node, changing nothing', async () => {
    const queue = uniqueName('act.bad');
    await queueOnBoth(queue);
    await sendManyMessages(nodes[0], queue, 2);
    const both = await call<{ detail: string }>('POST', queuePath(queue, 'messages/delete'), {
      filter: "colour = 'red'",
      messageIds: ['1'],
      nodeId: scenario.nodes[0]?.id,
    });
    expect(both.status).toBe(400);
    const noNode = await call<{ detail: string }>('POST', queuePath(queue, 'messages/delete'), { messageIds: ['1'] });
    expect(noNode.status).toBe(400);
    expect(noNode.json.detail).toContain('nodeId');
    const noTarget = await call<{ detail: string }>('POST', queuePath(queue, 'messages/move'), {
      targetQueue: 'no.such.queue.anywhere',
    });
    expect(noTarget.status).toBe(400);
    expect(await messageCount(nodes[0], queue)).toBe(2);
  });

  it('does not touch the broker when the audit row cannot be written', async () => {
    const queue = uniqueName('act.noaudit');
    await queueOnBoth(queue);
    await sendManyMessages(nodes[0], queue, 5);
    await web.prisma.$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION refuse_audit() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'audit_event is read-only for this test'; END $$ LANGUAGE plpgsql`);
    await web.prisma.$executeRawUnsafe(
      'CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_event FOR EACH ROW EXECUTE FUNCTION refuse_audit()',
    );
    try {
      const purge = await call<{ type: string }>('POST', queuePath(queue, 'purge'), {});
      expect(purge.status).toBe(503);
      expect(purge.json.type).toContain('audit-unavailable');
      const pause = await call('POST', queuePath(queue, 'pause'), {});
      expect(pause.status).toBe(503);
    } finally {
      await web.prisma.$executeRawUnsafe('DROP TRIGGER refuse_audit ON audit_event');
    }
    expect(await messageCount(nodes[0], queue)).toBe(5);
    const paused = await jolokia(nodes[0], { type: 'read', mbean: queueMbean(nodes[0], queue), attribute: 'Paused' });
    expect(paused).toBe(false);
  });

  it('pauses persistently and resumes on every node, and creates and deletes a queue', async () => {
    const queue = uniqueName('act.pause');
    await queueOnBoth(queue);
    const paused = await call<CommandResult>('POST', queuePath(queue, 'pause'), { persist: true });
    expect(paused.json).toMatchObject({ outcome: 'SUCCEEDED', appliedCount: 2 });
    for (const node of nodes) {
      const attributes = (await jolokia(node, {
        type: 'read',
        mbean: queueMbean(node, queue),
        attribute: ['Paused', 'PersistedPause'],
      })) as { Paused: boolean; PersistedPause: boolean };
      expect(attributes).toEqual({ Paused: true, PersistedPause: true });
    }
    const resumed = await call<CommandResult>('POST', queuePath(queue, 'resume'), {});
    expect(resumed.json.outcome).toBe('SUCCEEDED');

    const created = uniqueName('act.created');
    const create = await call<CommandResult>('POST', `/clusters/${scenario.clusterId}/queues`, {
      name: created,
      routingType: 'ANYCAST',
      durable: true,
      maxConsumers: 3,
    });
    expect(create.status).toBe(200);
    expect(create.json.appliedCount).toBe(2);
    for (const node of nodes) {
      expect(await jolokia(node, { type: 'read', mbean: queueMbean(node, created), attribute: 'MaxConsumers' })).toBe(
        3,
      );
    }
    await waitFor('the new queue in the grid', async () =>
      (await call('GET', `/clusters/${scenario.clusterId}/queues/${created}`)).status === 200 ? true : undefined,
    );
    const removed = await call<CommandResult>('DELETE', `/clusters/${scenario.clusterId}/queues/${created}`, {});
    expect(removed.status).toBe(200);
    expect(removed.json.outcome).toBe('SUCCEEDED');
    await expect(
      jolokia(nodes[0], { type: 'read', mbean: queueMbean(nodes[0], created), attribute: 'MaxConsumers' }),
    ).rejects.toThrow();
  });
  it('creates and deletes an address on every node, and closes a connection on the node that issued it', async () => {
    const address = uniqueName('act.address');
    const created = await call<CommandResult>('POST', `/clusters/${scenario.clusterId}/addresses`, {
      name: address,
      routingTypes: ['MULTICAST'],
    });
    expect(created.status).toBe(200);
    expect(created.json.appliedCount).toBe(2);
    for (const node of nodes) {
      const types = await jolokia(node, {
        type: 'read',
        mbean: `${brokerMbean(node.name)},component=addresses,address="${address}"`,
        attribute: 'RoutingTypes',
      });
      expect(types).toEqual(['MULTICAST']);
    }
    const removed = await call<CommandResult>(
      'DELETE',
      `/clusters/${scenario.clusterId}/addresses/${encodeURIComponent(address)}`,
      {},
    );
    expect(removed.json).toMatchObject({ outcome: 'SUCCEEDED', appliedCount: 2 });

    const queue = uniqueName('act.conn');
    await queueOnBoth(queue);
    const consumer = await openOwnConsumer(nodes[0], queue, 'flotilla-close-test');
    try {
      const connection = await waitFor('the consumer’s connection in the list', async () => {
        const { json } = await call<{ items: Array<{ id: string; nodeId: string; clientId: string | null }> }>(
          'GET',
          `/clusters/${scenario.clusterId}/connections?pageSize=200`,
        );
        return json.items.find((row) => row.clientId === 'flotilla-close-test');
      });
      const preview = await call<CommandResult>(
        'POST',
        `/clusters/${scenario.clusterId}/connections/${encodeURIComponent(connection.id)}/close?dryRun=true`,
        { nodeId: connection.nodeId },
      );
      expect(preview.json).toMatchObject({ outcome: 'WOULD_APPLY', affectedCount: 1 });
      expect(preview.json.nodes).toHaveLength(1);
      const closed = await call<CommandResult>(
        'POST',
        `/clusters/${scenario.clusterId}/connections/${encodeURIComponent(connection.id)}/close`,
        { nodeId: connection.nodeId },
      );
      expect(closed.json).toMatchObject({ outcome: 'SUCCEEDED', appliedCount: 1 });
      await waitFor('the connection gone', async () => {
        const { json } = await call<{ items: Array<{ clientId: string | null }> }>(
          'GET',
          `/clusters/${scenario.clusterId}/connections?pageSize=200`,
        );
        return json.items.some((row) => row.clientId === 'flotilla-close-test') ? undefined : true;
      });
    } finally {
      // The broker closed it already when the test got that far: do not wait for a goodbye that will not come.
      await Promise.race([consumer.close(), new Promise((resolve) => setTimeout(resolve, 1_000))]);
    }
  });

  it('moves by filter while a node is killed mid-way: its outcome is audited, and no message is lost or doubled', async () => {
    const source = uniqueName('act.move');
    const target = uniqueName('act.moved');
    await queueOnBoth(source);
    await queueOnBoth(target);
    const colour = (index: number) => ({ colour: index % 2 === 0 ? 'red' : 'blue' });
    const sent = [
      ...(await sendManyMessages(nodes[0], source, 600, colour)),
      ...(await sendManyMessages(nodes[1], source, 6_000, colour)),
    ];

    const moving = call<CommandResult & { nodes?: NodeResult[] }>(
      'POST',
      `${queuePath(source, 'messages/move')}?override=true`,
      { filter: "colour = 'red'", targetQueue: target },
    );
    // The second node is killed while its move runs (six batches of 1,000 to commit).
    await new Promise((resolve) => setTimeout(resolve, 150));
    await nodes[1].kill();
    const moved = await moving;
    expect([200, 502]).toContain(moved.status);
    const auditId = moved.json.auditId;
    const row = await auditRow(auditId);
    const detail = row.nodeDetail as { nodes: Array<{ nodeName: string; outcome: string; error?: string }> };
    const first = detail.nodes.find((node) => node.nodeName === nodes[0].name);
    const second = detail.nodes.find((node) => node.nodeName === nodes[1].name);
    expect(first?.outcome).toBe('APPLIED');
    // Killed mid-way: the node's call failed, or (on a fast machine) it finished just before; either way it is named.
    expect(['FAILED', 'APPLIED']).toContain(second?.outcome);
    if (second?.outcome === 'FAILED') expect(row.outcome).toBe('PARTIAL');

    await nodes[1].start();
    const everywhere = [
      ...(await uidsIn(nodes[0], source)),
      ...(await uidsIn(nodes[0], target)),
      ...(await uidsIn(nodes[1], source)),
      ...(await uidsIn(nodes[1], target)),
    ];
    expect(everywhere.length).toBe(sent.length);
    expect(new Set(everywhere).size).toBe(sent.length);
    expect([...everywhere].sort()).toEqual([...sent].sort());
    // Only red moved, and on the node that finished, every red one did.
    const movedOnFirst = await uidsIn(nodes[0], target);
    expect(movedOnFirst).toHaveLength(300);
  }, 240_000);
});
