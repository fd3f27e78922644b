import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignalCoalescer } from './signal-coalescer.ts';
import type { StreamSignal } from './stream-connection.ts';

const signal = (topic: string, ts: string): StreamSignal => ({ topic, clusterId: 'c1', ts });

describe('SignalCoalescer', () => {
  let passed: StreamSignal[];
  let coalescer: SignalCoalescer;

  beforeEach(() => {
    vi.useFakeTimers();
    passed = [];
    coalescer = new SignalCoalescer((passedSignal) => passed.push(passedSignal), 1_000);
  });
  afterEach(() => {
    coalescer.close();
    vi.useRealTimers();
  });

  it('passes the first signal of a quiet topic at once', () => {
    coalescer.offer(signal('events', 'a'));
    expect(passed.map((each) => each.ts)).toEqual(['a']);
  });

  it('turns a burst into one signal now and the latest one at the end of the second', () => {
    for (let index = 0; index < 50; index++) {
      coalescer.offer(signal('events', `e${String(index)}`));
      vi.advanceTimersByTime(10);
    }
    expect(passed.map((each) => each.ts)).toEqual(['e0']);
    vi.advanceTimersByTime(499);
    expect(passed).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(passed.map((each) => each.ts)).toEqual(['e0', 'e49']);
    // The burst is over: nothing more comes on its own.
    vi.advanceTimersByTime(5_000);
    expect(passed).toHaveLength(2);
  });

  it('keeps a steady stream at one signal a second', () => {
    for (let index = 0; index < 100; index++) {
      coalescer.offer(signal('events', `e${String(index)}`));
      vi.advanceTimersByTime(50);
    }
    vi.advanceTimersByTime(1_000);
    // 5 seconds of signals every 50 ms: one at 0 and one at the end of each second after.
    expect(passed.length).toBeGreaterThanOrEqual(5);
    expect(passed.length).toBeLessThanOrEqual(6);
    expect(passed.at(-1)?.ts).toBe('e99');
  });

  it('counts each topic on its own', () => {
    coalescer.offer(signal('events', 'e'));
    coalescer.offer(signal('queues', 'q'));
    coalescer.offer(signal('events', 'e2'));
    expect(passed.map((each) => each.ts)).toEqual(['e', 'q']);
    vi.advanceTimersByTime(1_000);
    expect(passed.map((each) => each.ts)).toEqual(['e', 'q', 'e2']);
  });

  it('passes a signal at once again after a quiet second', () => {
    coalescer.offer(signal('events', 'a'));
    vi.advanceTimersByTime(1_000);
    coalescer.offer(signal('events', 'b'));
    expect(passed.map((each) => each.ts)).toEqual(['a', 'b']);
  });

  it('drops what is waiting when closed', () => {
    coalescer.offer(signal('events', 'a'));
    coalescer.offer(signal('events', 'b'));
    coalescer.close();
    vi.advanceTimersByTime(2_000);
    expect(passed.map((each) => each.ts)).toEqual(['a']);
  });
});
