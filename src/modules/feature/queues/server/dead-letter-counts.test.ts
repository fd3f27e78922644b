// The kept dead-letter counts as pure logic (the real brokers' side is in dead-letters.broker.test.ts): kept
// queues are not counted again, a page with one missing counts all of its queues in the same read (so the page is
// of one moment), and a read with a failed node is not kept.
import { beforeEach, describe, expect, it } from 'vitest';
import type { QueueRef } from '@/modules/platform/broker/index.ts';
import { forgetDeadLetterCounts, keptCounts, type ClusterCount } from './dead-letter-counts.ts';

const CLUSTER = 'cluster-a';
const TTL = 5_000;
const ref = (queue: string): QueueRef => ({ address: queue, queue, routingType: 'ANYCAST' });

/** A counter that answers `count` for every queue on two nodes and remembers what it was asked. */
function counter(failing = false) {
  const asked: string[][] = [];
  const count = (refs: readonly QueueRef[]): Promise<ClusterCount> => {
    asked.push(refs.map((item) => item.queue));
    const answers = refs.map((item) => ({ count: item.queue.length }));
    return Promise.resolve({
      answers: failing ? [answers] : [answers, answers],
      failures: failing
        ? [{ clusterId: CLUSTER, clusterName: 'a', nodeName: 'two', kind: 'unreachable', message: 'refused' }]
        : [],
      nodes: 2,
    });
  };
  return { asked, count };
}

beforeEach(() => forgetDeadLetterCounts(undefined));

describe('kept dead-letter counts', () => {
  it('counts a queue once while kept, and the whole page in one read when it adds a queue not kept', async () => {
    const { asked, count } = counter();
    const first = await keptCounts(CLUSTER, [ref('DLQ')], TTL, count);
    expect(first[0]).toMatchObject({ complete: true, perNode: [{ count: 3 }, { count: 3 }], failures: [] });
    await keptCounts(CLUSTER, [ref('DLQ')], TTL, count);
    const page = await keptCounts(CLUSTER, [ref('DLQ'), ref('ExpiryQueue')], TTL, count);
    expect(asked).toEqual([['DLQ'], ['DLQ', 'ExpiryQueue']]);
    expect(page.map((kept) => kept.perNode[0]?.count)).toEqual([3, 11]);
  });

  it('serves a read with a failed node as incomplete and asks again next time', async () => {
    const { asked, count } = counter(true);
    const [first] = await keptCounts(CLUSTER, [ref('DLQ')], TTL, count);
    expect(first).toMatchObject({ complete: false, failures: [{ nodeName: 'two' }] });
    await keptCounts(CLUSTER, [ref('DLQ')], TTL, count);
    expect(asked).toEqual([['DLQ'], ['DLQ']]);
  });

  it('keeps nothing when the setting is 0s: every read asks the brokers', async () => {
    const { asked, count } = counter();
    await keptCounts(CLUSTER, [ref('DLQ')], 0, count);
    await keptCounts(CLUSTER, [ref('DLQ')], 0, count);
    expect(asked).toEqual([['DLQ'], ['DLQ']]);
  });

  it('forgets one cluster without touching another', async () => {
    const { asked, count } = counter();
    await keptCounts(CLUSTER, [ref('DLQ')], TTL, count);
    await keptCounts('cluster-b', [ref('DLQ')], TTL, count);
    forgetDeadLetterCounts(CLUSTER);
    await keptCounts(CLUSTER, [ref('DLQ')], TTL, count);
    await keptCounts('cluster-b', [ref('DLQ')], TTL, count);
    expect(asked).toEqual([['DLQ'], ['DLQ'], ['DLQ']]);
  });
});
