import { describe, expect, it } from 'vitest';
import {
  notificationAddressOf,
  reservedAddressReason,
  reservedOriginFilter,
  reservedPropertyPrefix,
} from './reserved-names.ts';

describe('reserved addresses', () => {
  it.each([
    'activemq.management',
    'activemq.notifications',
    'jms.queue.activemq.management', // an acceptor's anycastPrefix stripped by the broker
    'multicast://activemq.notifications',
    'activemq.notifications::flotilla-subscription', // a queue on the notification address
    'jms.topic.activemq.notifications::q',
    '$sys.x',
    '$sys.mqtt.sessions',
    '$.artemis.internal.sf.cluster.node',
    'anycast://$.artemis.internal.x',
    '$ACTIVEMQ_ARTEMIS_MIRROR_target',
  ])('refuses %s with the defaults', (name) => {
    expect(reservedAddressReason(name, [])).toBeDefined();
  });

  it('refuses the addresses a node reported, and the defaults still', () => {
    expect(reservedAddressReason('ops.mgmt', ['ops.mgmt', 'ops.events'])).toContain('"ops.mgmt"');
    expect(reservedAddressReason('ops.events::q', ['ops.mgmt', 'ops.events'])).toContain('"ops.events"');
    expect(reservedAddressReason('activemq.management', ['ops.mgmt'])).toBeDefined();
    expect(reservedAddressReason('ops.mgmt', [])).toBeUndefined();
  });

  it.each([
    'orders',
    'ActiveMQ.Management', // the broker compares case-sensitively: another address
    'activemq.management ', // a trailing space: another address
    ' activemq.notifications.x',
    'activemq.management.replies',
    'activemq',
    'sys.x',
    '$system',
  ])('lets %j through', (name) => {
    expect(reservedAddressReason(name, ['', ''])).toBeUndefined();
  });
});

describe('reserved property names', () => {
  it.each([
    ['_AMQ_ROUTE_TO', '_AMQ'],
    ['_AMQ_DUPL_ID', '_AMQ'],
    ['_AMQ_ORIG_ADDRESS', '_AMQ'],
    ['_AMQ_ResourceName', '_AMQ'],
    ['__AMQ_CID', '__AMQ'],
    ['_HQ_DUPL_ID', '_HQ_'],
    ['__HDR_BROKER_PATH', '__HDR_'],
    ['JMSXUserID', 'JMSX'],
    ['JMSXGroupID', 'JMSX'],
    ['JMS_AMQP_ORIGINAL_ENCODING', 'JMS_'],
  ])('refuses %s (%s)', (name, prefix) => {
    expect(reservedPropertyPrefix(name)).toBe(prefix);
  });

  it.each(['vin', 'amq_route', '_amq_route_to', 'JMSType', 'x_AMQ_ROUTE_TO', ' _AMQ_ROUTE_TO'])('allows %j', (name) => {
    expect(reservedPropertyPrefix(name)).toBeUndefined();
  });
});

describe('the filter of messages a retry leaves where they are', () => {
  const filter = reservedOriginFilter(['ops.mgmt', 'ops.events', ''], ["tap'1"]);

  it('checks the original address and queue as properties and as AMQP annotations, absent ones being false', () => {
    for (const field of ['_AMQ_ORIG_ADDRESS', '"m._AMQ_ORIG_ADDRESS"', '_AMQ_ORIG_QUEUE', '"m._AMQ_ORIG_QUEUE"'])
      expect(filter).toContain(`(${field} IS NOT NULL AND (`);
  });

  it('names the defaults, the reported addresses (as suffix and before ::) and the internal prefixes, escaped', () => {
    for (const pattern of [
      "LIKE '%activemq.notifications' ESCAPE '!'",
      "LIKE '%activemq.management::%' ESCAPE '!'",
      "LIKE '%ops.events' ESCAPE '!'",
      "LIKE '%ops.mgmt::%' ESCAPE '!'",
      "LIKE '%$sys.%' ESCAPE '!'",
      "LIKE '%$ACTIVEMQ!_ARTEMIS!_%' ESCAPE '!'",
    ])
      expect(filter).toContain(pattern);
    expect(filter).toContain("_AMQ_ORIG_QUEUE IN ('tap''1')");
    expect(filter).not.toContain("LIKE '%' ESCAPE");
  });

  it('listens on the node’s notification address, the default until one is read', () => {
    expect(notificationAddressOf('ops.events')).toBe('ops.events');
    expect(notificationAddressOf('')).toBe('activemq.notifications');
    expect(notificationAddressOf(null)).toBe('activemq.notifications');
  });
});
