import { describe, expect, it } from 'vitest';
import { brokerTime, consumerRow, sessionIndex } from './resource-rows.ts';

const node = { nodeId: 'n1', nodeName: 'broker-a', logicalNode: 'uuid-a' };

describe('broker rows', () => {
  it('reads Java’s Date.toString in UTC or with an offset, and epoch milliseconds', () => {
    expect(brokerTime('Wed Nov 25 12:34:56 UTC 2026')).toBe('2026-11-25T12:34:56.000Z');
    expect(brokerTime('Wed Nov 25 13:34:56 GMT+01:00 2026')).toBe('2026-11-25T12:34:56.000Z');
    expect(brokerTime('1764074096000')).toBe(new Date(1764074096000).toISOString());
    expect(brokerTime('')).toBeNull();
    expect(brokerTime('not a time')).toBeNull();
  });

  it('gives a consumer its session’s connection and marks it slow only with messages in flight and no recent ack', () => {
    const sessions = sessionIndex([{ node, rows: [{ id: 's-1', connectionID: 'conn-9' }] }]);
    const now = Date.parse('2026-11-25T12:01:00Z');
    const raw = {
      id: '7',
      session: 's-1',
      queue: 'orders',
      address: 'orders',
      queueType: 'anycast',
      remoteAddress: '/127.0.0.1:50000',
      creationTime: 'Wed Nov 25 12:00:00 UTC 2026',
      messagesInTransit: '3',
      messagesAcknowledged: '10',
      lastAcknowledgedTime: Date.parse('2026-11-25T12:00:20Z'),
    };
    const row = consumerRow(node, raw, sessions, now, 30_000);
    expect(row).toMatchObject({
      key: 'n1/7',
      connectionId: 'conn-9',
      routingType: 'ANYCAST',
      delivering: 3,
      acknowledged: 10,
      createdAt: '2026-11-25T12:00:00.000Z',
      nodeName: 'broker-a',
      slow: true,
    });
    expect(consumerRow(node, { ...raw, messagesInTransit: '0' }, sessions, now, 30_000).slow).toBe(false);
    expect(consumerRow(node, raw, sessions, now, 60_000).slow).toBe(false);
    expect(consumerRow(node, { ...raw, session: 'other' }, sessions, now, 30_000).connectionId).toBeNull();
  });
});
