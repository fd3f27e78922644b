// One plugin's core-event queue: in order, one at a time, signals coalesced, events bounded with a count of the lost.
import { describe, expect, it } from 'vitest';
import { CoreEventQueue, type CoreEventInput } from './core-events.ts';

const CLUSTER = '6f1c1a52-7d1e-4c1b-9a63-0c2f3f0f5b11';

/** A handler that holds each delivery until released, like a plugin still busy with the last one. */
function heldHandler() {
  const delivered: CoreEventInput[] = [];
  const waiting: (() => void)[] = [];
  const deliver = (input: CoreEventInput) =>
    new Promise<void>((resolve) => {
      delivered.push(input);
      waiting.push(resolve);
    });
  const releaseAll = async () => {
    while (waiting.length > 0) {
      waiting.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { delivered, deliver, releaseAll };
}

const signal = (at: string, topic = 'queues'): CoreEventInput => ({ topic, clusterId: CLUSTER, at });
const event = (id: string): CoreEventInput => ({ topic: 'alerts', clusterId: CLUSTER, at: 'now', id, data: { id } });

describe('CoreEventQueue', () => {
  it('delivers one at a time and coalesces waiting signals of one topic and cluster into the newest', async () => {
    const handler = heldHandler();
    const queue = new CoreEventQueue(handler.deliver);
    for (let i = 0; i < 20; i++) queue.offer(signal(`t${i}`), `queues ${CLUSTER}`);
    queue.offer(signal('a1', 'topology'), `topology ${CLUSTER}`);
    expect(handler.delivered.map((input) => input.at)).toEqual(['t0']); // one in flight
    await handler.releaseAll();
    expect(handler.delivered.map((input) => input.at)).toEqual(['t0', 't19', 'a1']);
  });

  it('keeps events in order up to its bound and tells the plugin how many it lost', async () => {
    const handler = heldHandler();
    const queue = new CoreEventQueue(handler.deliver, 3);
    for (let i = 0; i < 7; i++) queue.offer(event(`e${i}`));
    // e0 is in flight; e1..e6 offered to a queue of three: e1, e2 and e3 go.
    expect(queue.size).toBe(3);
    await handler.releaseAll();
    expect(handler.delivered.map((input) => [input.id, input.missed])).toEqual([
      ['e0', undefined],
      ['e4', 3],
      ['e5', undefined],
      ['e6', undefined],
    ]);
  });

  it('goes on after a handler fails, and delivers nothing once closed', async () => {
    const seen: string[] = [];
    const queue = new CoreEventQueue((input) => {
      seen.push(input.id ?? '');
      return input.id === 'e0' ? Promise.reject(new Error('the plugin’s bug')) : Promise.resolve();
    });
    queue.offer(event('e0'));
    queue.offer(event('e1'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    queue.close();
    queue.offer(event('e2'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual(['e0', 'e1']);
  });
});
