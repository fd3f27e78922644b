import { describe, expect, it } from 'vitest';
import { LiveCache } from './live-cache.ts';

type Kind = 'consumers' | 'sessions';

function counting() {
  const calls: Array<readonly Kind[]> = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const fetch = async (kinds: readonly Kind[]) => {
    calls.push(kinds);
    await gate;
    return Object.fromEntries(kinds.map((kind) => [kind, `${kind}#${String(calls.length)}`])) as Record<Kind, string>;
  };
  return { calls, fetch, release: () => release() };
}

describe('the live-through cache', () => {
  it('lets ten concurrent readers share one read, and serves it while fresh', async () => {
    let now = 1_000;
    const cache = new LiveCache<Kind, string>(() => now);
    const source = counting();
    const readers = Array.from({ length: 10 }, () => cache.read('c1', ['consumers'], 5_000, source.fetch));
    source.release();
    const answers = await Promise.all(readers);
    expect(source.calls).toEqual([['consumers']]);
    expect(new Set(answers.map((answer) => answer.consumers.value))).toEqual(new Set(['consumers#1']));
    now += 4_999;
    await cache.read('c1', ['consumers'], 5_000, source.fetch);
    expect(source.calls).toHaveLength(1);
    now += 1;
    await cache.read('c1', ['consumers'], 5_000, source.fetch);
    expect(source.calls).toHaveLength(2);
  });

  it('reads every kind of a read again in one call when one is stale, so they agree with each other', async () => {
    const cache = new LiveCache<Kind, string>(() => 0);
    const source = counting();
    source.release();
    await cache.read('c1', ['sessions'], 5_000, source.fetch);
    const both = await cache.read('c1', ['consumers', 'sessions'], 5_000, source.fetch);
    expect(source.calls).toEqual([['sessions'], ['consumers', 'sessions']]);
    expect(both.sessions.value).toBe('sessions#2');
    expect(both.consumers.value).toBe('consumers#2');
    // All fresh: nothing is read.
    await cache.read('c1', ['consumers', 'sessions'], 5_000, source.fetch);
    expect(source.calls).toHaveLength(2);
  });

  it('reads again after an invalidation of the kind, not of another kind or cluster', async () => {
    const cache = new LiveCache<Kind, string>(() => 0);
    const source = counting();
    source.release();
    await cache.read('c1', ['consumers', 'sessions'], 60_000, source.fetch);
    cache.invalidate('c2');
    cache.invalidate('c1', ['sessions']);
    await cache.read('c1', ['consumers'], 60_000, source.fetch);
    expect(source.calls).toEqual([['consumers', 'sessions']]);
    await cache.read('c1', ['consumers', 'sessions'], 60_000, source.fetch);
    expect(source.calls).toEqual([
      ['consumers', 'sessions'],
      ['consumers', 'sessions'],
    ]);
    cache.invalidate(undefined);
    await cache.read('c1', ['consumers'], 60_000, source.fetch);
    expect(source.calls).toHaveLength(3);
  });

  it('keeps no failed read: the next reader asks again', async () => {
    const cache = new LiveCache<Kind, string>(() => 0);
    let attempts = 0;
    const failing = () => {
      attempts += 1;
      return Promise.reject(new Error('node down'));
    };
    await expect(cache.read('c1', ['consumers'], 60_000, failing)).rejects.toThrow('node down');
    await expect(cache.read('c1', ['consumers'], 60_000, failing)).rejects.toThrow('node down');
    expect(attempts).toBe(2);
  });
});
