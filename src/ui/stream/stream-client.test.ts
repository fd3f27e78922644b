import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.ts';
import { isInvalidatedBy } from './live-query.ts';
import { SseParser } from './sse-parser.ts';

describe('SseParser', () => {
  it('yields messages split across chunks and skips comments and bare retry lines', () => {
    const parser = new SseParser();
    expect(parser.feed('retry: 3000\nevent: ready\nda')).toEqual([]);
    expect(parser.feed('ta: {"topics":["health"]}\n\n:ping\n\nretry: 5\n\n')).toEqual([
      { event: 'ready', data: '{"topics":["health"]}' },
    ]);
    expect(parser.feed('id: 42\r\nevent: events\r\ndata: a\r\ndata: b\r\n\r\n')).toEqual([
      { event: 'events', data: 'a\nb', id: '42' },
    ]);
  });
});

describe('backoffDelay', () => {
  const policy = { baseMs: 1_000, capMs: 15_000 };

  it('doubles per failure up to the cap, with half of the delay jittered', () => {
    expect([1, 2, 3, 4, 5, 6, 50].map((failures) => backoffDelay(failures, policy, () => 1))).toEqual([
      1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000,
    ]);
    expect(backoffDelay(3, policy, () => 0)).toBe(2_000);
    expect(backoffDelay(50, policy, () => 0)).toBe(7_500);
  });
});

describe('isInvalidatedBy', () => {
  const signal = { topic: 'health', clusterId: 'c1', ts: '2026-01-01T00:00:00Z' };

  it('matches only queries of the same scope that declared the topic', () => {
    expect(isInvalidatedBy({ meta: { clusterId: 'c1', topics: ['health', 'queues'] } }, signal)).toBe(true);
    expect(isInvalidatedBy({ meta: { clusterId: 'c2', topics: ['health'] } }, signal)).toBe(false);
    expect(isInvalidatedBy({ meta: { clusterId: 'c1', topics: ['queues'] } }, signal)).toBe(false);
    expect(isInvalidatedBy({ meta: undefined }, signal)).toBe(false);
  });
});
