import { describe, expect, it } from 'vitest';
import { NodeLimiter } from './node-limiter.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('node limiter', () => {
  it('never runs more calls at once than allowed, and measures how long the others waited', async () => {
    const limiter = new NodeLimiter({ maxConcurrentCalls: 2, maxCallsPerSecond: 1_000 });
    let inFlight = 0;
    let peak = 0;
    const call = async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await sleep(50);
      inFlight--;
    };
    const waits = (await Promise.all(Array.from({ length: 6 }, () => limiter.run(call)))).map((r) => r.waitedMs);
    expect(peak).toBe(2);
    expect(Math.max(...waits)).toBeGreaterThanOrEqual(90); // the last pair waited for two rounds of 50 ms
    expect(limiter.stats()).toMatchObject({ active: 0, queued: 0 });
    expect(limiter.stats().maxWaitMs).toBeGreaterThanOrEqual(90);
  });

  it('spaces call starts to the rate cap', async () => {
    const limiter = new NodeLimiter({ maxConcurrentCalls: 10, maxCallsPerSecond: 20 });
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 5 }, () => limiter.run(() => Promise.resolve(starts.push(performance.now())))),
    );
    expect((starts.at(-1) ?? 0) - (starts[0] ?? 0)).toBeGreaterThanOrEqual(4 * 50 - 5);
  });

  it('releases its slot when a call fails', async () => {
    const limiter = new NodeLimiter({ maxConcurrentCalls: 1, maxCallsPerSecond: 1_000 });
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limiter.run(() => Promise.resolve('next'))).resolves.toMatchObject({ value: 'next' });
  });
});
