import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignalCoalescer, topicsOfKind } from './event-signals.ts';

describe('notification kinds drive change signals', () => {
  it('maps consumer churn to consumers and queues, sessions and connections to their own', () => {
    expect(topicsOfKind('CONSUMER_CREATED')).toEqual(['consumers', 'queues']);
    expect(topicsOfKind('SESSION_CLOSED')).toEqual(['sessions']);
    expect(topicsOfKind('CONNECTION_DESTROYED')).toEqual(['connections']);
    expect(topicsOfKind('BINDING_ADDED')).toEqual(['queues']);
    expect(topicsOfKind('SECURITY_AUTHENTICATION_VIOLATION')).toEqual([]);
  });
});

describe('the signal coalescer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends at most one signal per topic per cluster per second, and a trailing one for the rest of a burst', () => {
    const sent: string[] = [];
    const coalescer = new SignalCoalescer(
      (topic, cluster) => sent.push(`${cluster}:${topic}`),
      1_000,
      () => Date.now(),
    );
    for (let i = 0; i < 100; i++) coalescer.offer('consumers', 'c1');
    coalescer.offer('queues', 'c1');
    coalescer.offer('consumers', 'c2');
    expect(sent).toEqual(['c1:consumers', 'c1:queues', 'c2:consumers']);
    vi.advanceTimersByTime(999);
    expect(sent).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(['c1:consumers', 'c1:queues', 'c2:consumers', 'c1:consumers']);
    vi.advanceTimersByTime(5_000);
    expect(sent).toHaveLength(4);
  });

  it('sends what is due at once when flushed', () => {
    const sent: string[] = [];
    const coalescer = new SignalCoalescer(
      (topic) => sent.push(topic),
      1_000,
      () => Date.now(),
    );
    coalescer.offer('sessions', 'c1');
    coalescer.offer('sessions', 'c1');
    coalescer.flush();
    expect(sent).toEqual(['sessions', 'sessions']);
  });
});
