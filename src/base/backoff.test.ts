import { describe, expect, it } from 'vitest';
import { reconnectDelay } from './backoff.ts';

const policy = { initialDelayMs: 1_000, maxDelayMs: 30_000 };

describe('reconnectDelay', () => {
  it('doubles per attempt between half and all of the ceiling', () => {
    expect(reconnectDelay(policy, 0, () => 0)).toBe(500);
    expect(reconnectDelay(policy, 0, () => 1)).toBe(1_000);
    expect(reconnectDelay(policy, 3, () => 0)).toBe(4_000);
    expect(reconnectDelay(policy, 3, () => 1)).toBe(8_000);
  });

  it('never exceeds the cap however many attempts failed', () => {
    expect(reconnectDelay(policy, 50, () => 1)).toBe(30_000);
    expect(reconnectDelay(policy, 1_000_000, () => 0.5)).toBe(22_500);
  });

  it('gives the console stream 1 s doubling to 15 s, half of each delay jittered', () => {
    const stream = { initialDelayMs: 1_000, maxDelayMs: 15_000 };
    expect([0, 1, 2, 3, 4, 5, 49].map((attempt) => reconnectDelay(stream, attempt, () => 1))).toEqual([
      1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000,
    ]);
    expect(reconnectDelay(stream, 2, () => 0)).toBe(2_000);
    expect(reconnectDelay(stream, 49, () => 0)).toBe(7_500);
  });

  it('spreads nodes that fail together', () => {
    const delays = new Set([0.1, 0.4, 0.9].map((r) => reconnectDelay(policy, 4, () => r)));
    expect(delays.size).toBe(3);
  });
});
