// The queue grid on a real replicated pair, scraped by the real worker: the pair is one logical node before and
// after a kill -9 of the primary. After the failover the dead primary's last cell stays, stale and not counted,
// and the totals are the serving backup's (the replicated messages are not counted twice).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHaPair } from '@test/artemis/index.ts';
import { emptyQueue, ensureAnycastQueue } from '@test/broker-leftovers.ts';
import { sendDurableMessages, uniqueName, waitFor } from '@test/native-test-helpers.ts';
import { startHaScenario, type HaScenario, type RegisteredNode } from '@test/worker-kit.ts';
import { readQueueGrid, type QueueGridRow } from '@/modules/platform/scrape/read/index.ts';

const MESSAGES = 5;
let scenario: HaScenario;
let primary: RegisteredNode;
let backup: RegisteredNode;
const queue = uniqueName('grid.ha');

async function gridRow(): Promise<QueueGridRow | undefined> {
  const { items } = await readQueueGrid(scenario.runtimes.web.db, {
    clusterId: scenario.clusterId,
    queueName: queue,
    sort: { field: 'queueName', direction: 'asc' },
    page: 1,
    pageSize: 1,
  });
  return items[0];
}

beforeAll(async () => {
  scenario = await startHaScenario('queues-ha', await startHaPair(), 2_000, { tierB: '1s', tierC: '1h' });
  [primary, backup] = scenario.nodes as [RegisteredNode, RegisteredNode];
});

afterAll(() => scenario.stop());

describe('queue grid on a replicated pair', () => {
  it('shows the queue on one logical node of one, counted from the primary', async () => {
    // A retry finds the queue and the messages of its first attempt: it starts as the first did.
    await ensureAnycastQueue(primary.broker, queue);
    await emptyQueue(primary.broker, queue);
    await sendDurableMessages(primary.broker, queue, MESSAGES);
    // Until a pass has read both members' NodeID, each node is a logical node of its own (cluster_logical_node): the
    // row is read once the pair is known as one, and the whole row is asserted then.
    const row = await waitFor(
      'the queue with its messages in the grid, the pair known as one logical node',
      async () => {
        const found = await gridRow();
        return found?.messageCount === MESSAGES && found.nodesTotal === 1 ? found : undefined;
      },
      30_000,
    );
    expect(row).toMatchObject({ nodesPresent: 1, nodesTotal: 1, stale: false });
    expect(row.cells.find((cell) => cell.counted)?.nodeId).toBe(primary.id);
  });

  it('after kill -9 of the primary counts the serving backup once and keeps the primary’s cell, stale', async () => {
    await primary.broker.kill();
    const row = await waitFor(
      'the backup counted and the primary stale',
      async () => {
        const found = await gridRow();
        const counted = found?.cells.find((cell) => cell.counted);
        const dead = found?.cells.find((cell) => cell.nodeId === primary.id);
        return counted?.nodeId === backup.id && dead?.stale ? found : undefined;
      },
      90_000,
    );
    expect(row).toMatchObject({ messageCount: MESSAGES, nodesPresent: 1, nodesTotal: 1 });
    expect(row.cells.find((cell) => cell.nodeId === primary.id)).toMatchObject({
      counted: false,
      stale: true,
      messageCount: MESSAGES,
    });
    expect(row.cells.find((cell) => cell.nodeId === backup.id)).toMatchObject({
      counted: true,
      serving: true,
      messageCount: MESSAGES,
    });
  });
});
