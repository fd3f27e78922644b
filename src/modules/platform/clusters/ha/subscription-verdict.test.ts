import { describe, expect, it } from 'vitest';
import { notificationsCapability, storedSubscriptionOf } from './subscription-verdict.ts';

const now = new Date('2026-11-22T05:00:00.000Z');
const refusal = {
  refused: 'the broker refused the notification subscription (amqp:unauthorized-access: AMQ229032)',
  snippet: '<security-setting match="activemq.notifications">…',
  cause: 'permission' as const,
  since: '2026-11-22T04:59:00.000Z',
};

describe('NOTIFICATIONS capability from the subscriptions of the serving nodes', () => {
  it('is UNKNOWN before any serving node is known', () => {
    expect(notificationsCapability([])).toMatchObject({ value: 'UNKNOWN', snippet: null });
  });

  it('is AVAILABLE when one node has a subscription, even if another was refused', () => {
    const verdict = notificationsCapability([
      { node: 'b1', ...storedSubscriptionOf(refusal, now) },
      { node: 'b2', ...storedSubscriptionOf('established', now) },
    ]);
    expect(verdict).toMatchObject({ value: 'AVAILABLE', snippet: null });
    expect(verdict.detail).toContain('b2');
  });

  it('is UNAVAILABLE with the refusal and its snippet when none is established', () => {
    const verdict = notificationsCapability([{ node: 'b1', ...storedSubscriptionOf(refusal, now) }]);
    expect(verdict).toEqual({ value: 'UNAVAILABLE', detail: `b1: ${refusal.refused}`, snippet: refusal.snippet });
  });

  it('stays UNKNOWN while the subscription is being opened', () => {
    expect(notificationsCapability([{ node: 'b1', ...storedSubscriptionOf('unknown', now) }]).value).toBe('UNKNOWN');
  });

  it('keeps the start of an outage as the refusal time', () => {
    expect(storedSubscriptionOf(refusal, now).since?.toISOString()).toBe(refusal.since);
  });
});
