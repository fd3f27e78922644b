// The request-reply test clients (rr-clients.ts) on a real broker, the pool's leased single node: a responder answers a
// requester over a shared reply queue and over a dynamic (temporary) one, drops every n-th request when told to (the
// requester then times out on exactly those), an orphan reply lands on the reply queue, and a requester in a process of
// its own has a temporary reply queue that the broker removes once the process is SIGKILLed (read over Jolokia).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerNode } from './artemis/index.ts';
import { leaseSingleNode } from './artemis/lease.ts';
import { brokerMbean, jolokia } from './jolokia.ts';
import { createAnycastQueue, messageCount, uniqueName, waitFor } from './native-test-helpers.ts';
import {
  rrBrokerOf,
  runRequester,
  sendOrphanReply,
  spawnRequesterProcess,
  startResponder,
  type RequestPair,
  type RrBroker,
} from './rr-clients.ts';

const lease = leaseSingleNode();
let node: BrokerNode;
let broker: RrBroker;

/** A new anycast queue of this suite's, under the lease's prefix. */
async function newQueue(base: string): Promise<string> {
  const name = lease.name(uniqueName(base));
  await createAnycastQueue(node, name);
  return name;
}

const timedOut = (pair: RequestPair) => pair.latencyMs === null;

async function queueAttribute(queue: string, attribute: string): Promise<number> {
  const mbean = `${brokerMbean(node.name)},component=addresses,address="${queue}",subcomponent=queues,routing-type="anycast",queue="${queue}"`;
  return Number(await jolokia(node, { type: 'read', mbean, attribute }));
}

async function queueNames(): Promise<string[]> {
  return (await jolokia(node, { type: 'read', mbean: brokerMbean(node.name), attribute: 'QueueNames' })) as string[];
}

beforeAll(() => {
  const [first] = lease.nodes;
  if (!first) throw new Error('the pool has no single node');
  node = first;
  broker = rrBrokerOf(node);
});

afterAll(() => lease.stop());

describe('request-reply clients on a real broker', () => {
  it('answers every request over a shared reply queue, and an orphan reply lands there', async () => {
    const requestAddress = await newQueue('rr.requests');
    const replyAddress = await newQueue('rr.replies');
    const responder = await startResponder(broker, { requestAddress });
    try {
      const run = await runRequester(broker, {
        requestAddress,
        replyAddress,
        count: 5,
        timeoutMs: 10_000,
        correlation: 'correlation-id',
      });
      expect(run.replyAddress).toBe(replyAddress);
      expect(run.pairs).toHaveLength(5);
      for (const pair of run.pairs) {
        expect(pair.key).toMatch(/^corr-[a-z]{16}$/);
        expect(pair.latencyMs).toBeTypeOf('number');
        expect(pair.latencyMs).toBeGreaterThanOrEqual(0);
      }
      expect(new Set(run.pairs.map((pair) => pair.key)).size).toBe(5);
      // The responder counts a request handled once the broker settled its reply, which can be after the requester
      // read that reply (seen in CI: 4 at this line).
      await waitFor('the responder counting all five handled', () => (responder.handled === 5 ? true : undefined));
      expect(responder.dropped).toEqual([]);
      // Every request and every reply was accepted: nothing is left behind.
      expect(await messageCount(node, requestAddress)).toBe(0);
      expect(await messageCount(node, replyAddress)).toBe(0);
    } finally {
      await responder.stop();
    }

    await sendOrphanReply(broker, { replyAddress, correlationId: 'corr-nobody-asked' });
    await waitFor('the orphan reply on the reply queue', async () =>
      (await messageCount(node, replyAddress)) === 1 ? true : undefined,
    );
  });

  it('drops every second request, and the requester times out on exactly those', async () => {
    const requestAddress = await newQueue('rr.requests');
    const replyAddress = await newQueue('rr.replies');
    const responder = await startResponder(broker, { requestAddress, dropEvery: 2 });
    try {
      const run = await runRequester(broker, {
        requestAddress,
        replyAddress,
        count: 5,
        timeoutMs: 1_000,
        correlation: 'correlation-id',
      });
      const lost = run.pairs.filter(timedOut).map((pair) => pair.key);
      expect(lost).toHaveLength(2);
      expect(responder.dropped).toEqual(lost);
      expect(run.pairs.map(timedOut)).toEqual([false, true, false, true, false]);
      // As above: the count follows the reply's settlement.
      await waitFor('the responder counting all five handled', () => (responder.handled === 5 ? true : undefined));
    } finally {
      await responder.stop();
    }
  });

  it('holds a slow request delivering, unacknowledged, until its reply is settled (or acknowledges it first)', async () => {
    for (const acceptBeforeReply of [false, true]) {
      const requestAddress = await newQueue('rr.requests');
      const replyAddress = await newQueue('rr.replies');
      const responder = await startResponder(broker, { requestAddress, delayMs: 1_500, acceptBeforeReply });
      try {
        const running = runRequester(broker, {
          requestAddress,
          replyAddress,
          count: 1,
          timeoutMs: 10_000,
          correlation: 'correlation-id',
        });
        // The responder holds the request for its delay: delivering and unacknowledged, or acknowledged at once.
        await waitFor('the request held by the responder', async () =>
          (await queueAttribute(requestAddress, acceptBeforeReply ? 'MessagesAcknowledged' : 'DeliveringCount')) === 1
            ? true
            : undefined,
        );
        expect(responder.handled).toBe(0);
        expect(await queueAttribute(requestAddress, 'MessagesAcknowledged')).toBe(acceptBeforeReply ? 1 : 0);
        const [pair] = (await running).pairs;
        expect(pair?.latencyMs).toBeGreaterThanOrEqual(1_500);
        await waitFor('the request acknowledged', async () =>
          (await queueAttribute(requestAddress, 'MessagesAcknowledged')) === 1 ? true : undefined,
        );
        await waitFor('the responder counting the request handled (its reply settled)', () =>
          responder.handled === 1 ? true : undefined,
        );
      } finally {
        await responder.stop();
      }
    }
  });

  it('replies to a dynamic (temporary) reply queue, correlated on the message id', async () => {
    const requestAddress = await newQueue('rr.requests');
    const responder = await startResponder(broker, { requestAddress });
    try {
      const run = await runRequester(broker, {
        requestAddress,
        count: 3,
        timeoutMs: 10_000,
        correlation: 'message-id',
        ttlMs: 60_000,
      });
      expect(run.replyAddress).not.toBe('');
      expect(run.pairs).toHaveLength(3);
      for (const pair of run.pairs) {
        expect(pair.key).toMatch(/^req-[a-z]{16}$/);
        expect(pair.latencyMs).toBeTypeOf('number');
      }
      // The temporary queue went with the requester's connection.
      await waitFor('the temporary reply queue to go', async () =>
        (await queueNames()).includes(run.replyAddress) ? undefined : true,
      );
    } finally {
      await responder.stop();
    }
  });

  it('a requester process has a temporary reply queue that the broker removes once the process is killed', async () => {
    const requestAddress = await newQueue('rr.requests');
    const requester = spawnRequesterProcess(broker, { requestAddress, count: 2 });
    try {
      expect(requester.pid).toBeGreaterThan(0);
      const replyAddress = await requester.replyAddress;
      expect(await queueNames()).toContain(replyAddress);
      expect(await messageCount(node, requestAddress)).toBe(2);

      requester.kill();

      await waitFor('the temporary reply queue to go', async () =>
        (await queueNames()).includes(replyAddress) ? undefined : true,
      );
      // Its requests stay, replying to an address that no longer has a queue.
      expect(await messageCount(node, requestAddress)).toBe(2);
    } finally {
      requester.kill();
    }
  });
});
