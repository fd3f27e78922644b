import { describe, expect, it } from 'vitest';
import { brokerEventFrom, notificationSelector } from './broker-event.ts';

const node = { nodeKey: 'node-1', clusterKey: 'cluster-1' };

describe('brokerEventFrom', () => {
  it('lifts kind, time, address, queue and ids and keeps the rest typed', () => {
    const event = brokerEventFrom(node, {
      _AMQ_NotifType: { type: 'string', value: 'CONSUMER_CREATED' },
      _AMQ_NotifTimestamp: { type: 'long', value: 1_763_780_000_000 },
      _AMQ_Address: { type: 'string', value: 'orders' },
      _AMQ_RoutingName: { type: 'string', value: 'orders.audit' },
      _AMQ_ConsumerName: { type: 'long', value: 17 },
      _AMQ_SessionName: { type: 'string', value: 'b5f1…' },
      _AMQ_ConsumerCount: { type: 'int', value: 2 },
      _AMQ_Distance: { type: 'int', value: 0 },
    });
    expect(event).toMatchObject({
      kind: 'CONSUMER_CREATED',
      nodeKey: 'node-1',
      clusterKey: 'cluster-1',
      time: '2025-11-22T02:53:20.000Z',
      address: 'orders',
      queue: 'orders.audit',
      consumerId: '17',
      sessionId: 'b5f1…',
    });
    expect(event?.properties).toEqual({
      _AMQ_ConsumerCount: { type: 'int', value: 2 },
      _AMQ_Distance: { type: 'int', value: 0 },
    });
  });

  it('keeps a session notification’s _AMQ_Address (the notification address itself) as a property, not as its address', () => {
    const event = brokerEventFrom(node, {
      _AMQ_NotifType: { type: 'string', value: 'SESSION_CREATED' },
      _AMQ_Address: { type: 'string', value: 'activemq.notifications' },
      _AMQ_SessionName: { type: 'string', value: 's-1' },
      _AMQ_User: { type: 'string', value: 'app' },
    });
    expect(event?.address).toBeUndefined();
    expect(event?.sessionId).toBe('s-1');
    expect(event?.properties).toEqual({
      _AMQ_Address: { type: 'string', value: 'activemq.notifications' },
      _AMQ_User: { type: 'string', value: 'app' },
    });
  });

  it('ignores messages that are not notifications', () => {
    expect(brokerEventFrom(node, { vin: { type: 'string', value: 'x' } })).toBeUndefined();
  });

  it('uses the receive time when the broker sent no timestamp', () => {
    const event = brokerEventFrom(node, { _AMQ_NotifType: { type: 'string', value: 'BINDING_ADDED' } }, new Date(0));
    expect(event?.time).toBe('1970-01-01T00:00:00.000Z');
  });
});

describe('notificationSelector', () => {
  it('selects by the type name string', () => {
    expect(notificationSelector(['BINDING_ADDED', 'CONSUMER_CLOSED'])).toBe(
      "_AMQ_NotifType IN ('BINDING_ADDED','CONSUMER_CLOSED')",
    );
  });
});
