import { describe, expect, it } from 'vitest';
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

describe('isInvalidatedBy', () => {
  const signal = { topic: 'health', clusterId: 'c1', ts: '2026-01-01T00:00:00Z' };

  it('matches only queries of the same scope that declared the topic', () => {
    expect(isInvalidatedBy({ meta: { clusterId: 'c1', topics: ['health', 'queues'] } }, signal)).toBe(true);
    expect(isInvalidatedBy({ meta: { clusterId: 'c2', topics: ['health'] } }, signal)).toBe(false);
    expect(isInvalidatedBy({ meta: { clusterId: 'c1', topics: ['queues'] } }, signal)).toBe(false);
    expect(isInvalidatedBy({ meta: undefined }, signal)).toBe(false);
  });
});
