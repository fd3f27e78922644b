import { describe, expect, it } from 'vitest';
import type { CapturedMessage } from '../index/stored-message.ts';
import { CaptureBus } from './capture-bus.ts';

const message = { id: 'm1', address: 'orders' } as unknown as CapturedMessage;

describe('the capture bus', () => {
  it('hands messages to the listeners only after the index committed them', async () => {
    const order: string[] = [];
    let commit: () => void = () => undefined;
    const writer = {
      accept: () =>
        new Promise<void>((resolve) => {
          order.push('write');
          commit = () => {
            order.push('committed');
            resolve();
          };
        }),
    };
    const seen: string[] = [];
    const bus = new CaptureBus(writer, () => [
      {
        id: 'rr',
        load: () =>
          Promise.resolve((messages: readonly CapturedMessage[]) => {
            order.push('listener');
            seen.push(...messages.map((each) => each.id));
          }),
      },
    ]);
    const accepted = bus.accept([message]);
    await Promise.resolve();
    expect(order).toEqual(['write']);
    commit();
    await accepted;
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['write', 'committed', 'listener']);
    expect(seen).toEqual(['m1']);
  });

  it('tells no listener of a batch the index refused, and rejects so the consumer leaves it unacknowledged', async () => {
    const heard: string[] = [];
    const bus = new CaptureBus({ accept: () => Promise.reject(new Error('database gone')) }, () => [
      { id: 'rr', load: () => Promise.resolve(() => void heard.push('heard')) },
    ]);
    await expect(bus.accept([message])).rejects.toThrow('database gone');
    expect(heard).toEqual([]);
  });

  it('keeps capturing when a listener fails, and says which one', async () => {
    const logged: string[] = [];
    const bus = new CaptureBus(
      { accept: () => Promise.resolve() },
      () => [
        {
          id: 'broken',
          load: () =>
            Promise.resolve(() => {
              throw new Error('boom');
            }),
        },
      ],
      (line) => logged.push(line),
    );
    await bus.accept([message]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(logged).toEqual(['listener broken: boom']);
  });
});
