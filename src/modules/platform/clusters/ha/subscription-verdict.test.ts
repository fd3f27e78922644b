import { describe, expect, it } from 'vitest';
import { messageIoCapability, notificationsCapability, storedSubscriptionOf } from './subscription-verdict.ts';

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

describe('MESSAGE_IO capability from the native connections under the subscriptions', () => {
  const unreachable = { ...refusal, refused: 'connect ECONNREFUSED 127.0.0.1:61616', cause: 'unreachable' as const };

  it('is AVAILABLE while one native connection is established, naming the nodes without one', () => {
    const verdict = messageIoCapability([
      { node: 'b1', ...storedSubscriptionOf(unreachable, now) },
      { node: 'b2', ...storedSubscriptionOf('established', now) },
    ]);
    expect(verdict.value).toBe('AVAILABLE');
    expect(verdict.detail).toBe('native AMQP connection established to b2; no native connection to b1');
  });

  it('is UNAVAILABLE with the acceptor snippet when no connection can be opened', () => {
    const verdict = messageIoCapability([{ node: 'b1', ...storedSubscriptionOf(unreachable, now) }]);
    expect(verdict).toEqual({
      value: 'UNAVAILABLE',
      detail: `b1: no native AMQP connection (${unreachable.refused})`,
      snippet: unreachable.snippet,
    });
  });

  it('stays UNKNOWN, saying what is uncertain, when only the notification link was refused', () => {
    const verdict = messageIoCapability([{ node: 'b1', ...storedSubscriptionOf(refusal, now) }]);
    expect(verdict.value).toBe('UNKNOWN');
    expect(verdict.detail).toContain('permission to send and browse is not confirmed');
  });

  it('is UNKNOWN before the first connection attempt', () => {
    expect(messageIoCapability([]).value).toBe('UNKNOWN');
    expect(messageIoCapability([{ node: 'b1', ...storedSubscriptionOf('unknown', now) }]).value).toBe('UNKNOWN');
  });
});

describe('MESSAGE_IO when no AMQP URL is known', () => {
  it('is UNAVAILABLE: no connection can even be tried', () => {
    const verdict = messageIoCapability([
      {
        node: 'b1',
        state: 'refused',
        reason: 'no AMQP URL is known for this node',
        cause: 'configuration',
        snippet: null,
        since: new Date('2026-11-22T05:00:00.000Z'),
      },
    ]);
    expect(verdict).toEqual({
      value: 'UNAVAILABLE',
      detail: 'b1: no native AMQP connection (no AMQP URL is known for this node)',
      snippet: null,
    });
  });
});
