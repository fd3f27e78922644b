// The channels list rereads deliveries every 10 s, or as often as it polls while the stream is down.
import { describe, expect, it } from 'vitest';
import { deliveryPollInterval } from './delivery-poll.ts';

describe('delivery poll', () => {
  it('polls every 10 s while the stream is connected, and keeps the faster poll while it is down', () => {
    expect(deliveryPollInterval(false)).toBe(10_000);
    expect(deliveryPollInterval(5_000)).toBe(5_000);
    expect(deliveryPollInterval(60_000)).toBe(10_000);
  });
});
