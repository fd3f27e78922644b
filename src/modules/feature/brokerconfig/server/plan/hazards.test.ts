import { describe, expect, it } from 'vitest';
import type { ConfigDocumentInput } from '../model/document.ts';
import { bridge, divert, doc, queue, read, role, snapshot, type SnapshotParts } from './plan-fixtures.ts';
import { planNode, type PlanNodeInput } from './planner.ts';

const node = { nodeId: 'n1', nodeName: 'broker-1' };
const plan = (
  input: ConfigDocumentInput,
  parts: SnapshotParts = {},
  applied: string[] = [],
  extra: Partial<PlanNodeInput> = {},
) => planNode({ document: doc(input), snapshot: snapshot(parts), appliedKeys: new Set(applied), node, ...extra });
const ids = (result: ReturnType<typeof plan>) => result.hazards.map((h) => h.id);
const hazard = (result: ReturnType<typeof plan>, id: string) => result.hazards.find((h) => h.id === id);

describe('hazards: removing queues', () => {
  it('is HIGH when the queue holds messages, with the numbers, and the step carries the id', () => {
    const result = plan(
      {},
      { queues: [queue('orders', { messageCount: 10, deliveringCount: 1, scheduledCount: 1, consumerCount: 2 })] },
      ['queue:orders'],
    );
    const found = hazard(result, 'queue:orders:remove-with-messages');
    expect(found?.level).toBe('HIGH');
    expect(found?.message).toContain('12 messages (10 counted, 1 delivering, 1 scheduled)');
    expect(found?.message).toContain('2 consumers');
    expect(result.steps[0]?.hazardIds).toEqual(['queue:orders:remove-with-messages']);
  });

  it('is HIGH for consumers alone, and nothing for an idle empty queue', () => {
    expect(ids(plan({}, { queues: [queue('orders', { consumerCount: 1 })] }, ['queue:orders']))).toEqual([
      'queue:orders:remove-with-consumers',
    ]);
    expect(ids(plan({}, { queues: [queue('orders')] }, ['queue:orders']))).toEqual([]);
  });

  it('is HIGH for a destroy + create of a queue holding messages', () => {
    const result = plan(
      { queues: [{ name: 'orders', address: 'orders', durable: false }] },
      { queues: [queue('orders', { messageCount: 4 })] },
    );
    expect(hazard(result, 'queue:orders:remove-with-messages')?.message).toContain('to re-create it');
  });

  it('is HIGH when an update changes the filter (runtime only)', () => {
    const result = plan(
      { queues: [{ name: 'orders', address: 'orders', filter: "k='b'" }] },
      { queues: [queue('orders', { filter: "k='a'" })] },
    );
    expect(hazard(result, 'queue:orders:filter-runtime-only')?.level).toBe('HIGH');
    expect(result.steps[0]?.hazardIds).toEqual(['queue:orders:filter-runtime-only']);
  });
});

describe('hazards: dead-letter and expiry addresses', () => {
  const loaded: SnapshotParts['queues'] = [queue('orders', { messageCount: 7 }), queue('billing', { messageCount: 3 })];

  it('is HIGH when the written object omits a DLA the match reads (whole-object replace)', () => {
    const result = plan(
      { addressSettings: [{ match: '#', settings: { maxDeliveryAttempts: 10 } }] },
      {
        addressSettings: { '#': read({ deadLetterAddress: 'DLQ', expiryAddress: 'ExpiryQueue' }) },
      },
      ['addressSetting:#'],
    );
    expect(ids(result)).toEqual(['addressSetting:#:drops-dla', 'addressSetting:#:drops-expiry']);
  });

  it('is no drop when a less specific declared match supplies the DLA', () => {
    const result = plan(
      {
        addressSettings: [
          { match: '#', settings: { deadLetterAddress: 'DLQ' } },
          { match: 'orders.#', settings: { maxDeliveryAttempts: 10 } },
        ],
      },
      { addressSettings: { '#': read({ deadLetterAddress: 'DLQ' }), 'orders.#': read({ deadLetterAddress: 'DLQ' }) } },
      ['addressSetting:#', 'addressSetting:orders.#'],
    );
    expect(ids(result)).toEqual([]);
  });

  it('is HIGH "under load" when the DLA changes over queues holding messages, with the numbers', () => {
    const result = plan(
      { addressSettings: [{ match: '#', settings: { deadLetterAddress: 'DLQ2', expiryAddress: 'E' } }] },
      {
        addressSettings: { '#': read({ deadLetterAddress: 'DLQ', expiryAddress: 'E' }) },
        queues: loaded,
      },
      ['addressSetting:#'],
    );
    const found = hazard(result, 'addressSetting:#:dla-change-under-load');
    expect(found?.level).toBe('HIGH');
    expect(found?.message).toContain('2 queues there hold 10 messages');
    expect(ids(result)).not.toContain('addressSetting:#:expiry-change-under-load');
  });

  it('leaves out queues a more specific declared match keeps, and empty queues', () => {
    const result = plan(
      {
        addressSettings: [
          { match: '#', settings: { deadLetterAddress: 'DLQ2' } },
          { match: 'orders', settings: { deadLetterAddress: 'DLQ' } },
        ],
      },
      {
        addressSettings: { '#': read({ deadLetterAddress: 'DLQ' }), orders: read({ deadLetterAddress: 'DLQ' }) },
        queues: [queue('orders', { messageCount: 7 }), queue('billing')],
      },
      ['addressSetting:#', 'addressSetting:orders'],
    );
    expect(ids(result)).toEqual([]);
  });

  it('is HIGH when Flotilla removes its match that gave the DLA', () => {
    const result = plan({}, { addressSettings: { 'orders.#': read({ deadLetterAddress: 'DLQ' }) }, queues: loaded }, [
      'addressSetting:orders.#',
    ]);
    expect(ids(result)).toEqual(['addressSetting:orders.#:dla-change-under-load', 'addressSetting:orders.#:drops-dla']);
  });
});

describe('hazards: other address settings', () => {
  it('is MEDIUM when maxDeliveryAttempts goes down, from the broker default when unset', () => {
    const lowered = plan(
      { addressSettings: [{ match: '#', settings: { maxDeliveryAttempts: 3 } }] },
      { addressSettings: { '#': read() } },
    );
    expect(hazard(lowered, 'addressSetting:#:max-delivery-lowered')?.message).toContain('from 10 to 3');
    const fromUnbounded = plan(
      { addressSettings: [{ match: '#', settings: { maxDeliveryAttempts: 50 } }] },
      { addressSettings: { '#': read({ maxDeliveryAttempts: -1 }) } },
      ['addressSetting:#'],
    );
    expect(hazard(fromUnbounded, 'addressSetting:#:max-delivery-lowered')?.level).toBe('MEDIUM');
    const raised = plan(
      { addressSettings: [{ match: '#', settings: { maxDeliveryAttempts: 20 } }] },
      { addressSettings: { '#': read() } },
    );
    expect(ids(raised)).not.toContain('addressSetting:#:max-delivery-lowered');
  });

  it('is MEDIUM when auto-create goes off at a match covering live addresses', () => {
    const result = plan(
      { addressSettings: [{ match: 'orders.#', settings: { autoCreateQueues: false } }] },
      {
        addressSettings: { 'orders.#': read() },
        addresses: ['orders', 'orders.eu', 'billing'],
      },
    );
    const found = hazard(result, 'addressSetting:orders.#:auto-create-off');
    expect(found?.level).toBe('MEDIUM');
    expect(found?.message).toContain('2 live addresses (orders, orders.eu)');
  });

  it('says nothing about auto-create already off, or off where no address lives', () => {
    const already = plan(
      { addressSettings: [{ match: '#', settings: { autoCreateQueues: false, maxDeliveryAttempts: 10 } }] },
      {
        addressSettings: { '#': read({ autoCreateQueues: false }) },
        addresses: ['orders'],
      },
      ['addressSetting:#'],
    );
    expect(ids(already)).toEqual([]);
    const nowhere = plan(
      { addressSettings: [{ match: 'x.#', settings: { autoCreateAddresses: false } }] },
      { addressSettings: { 'x.#': read() }, addresses: ['orders'] },
    );
    expect(ids(nowhere)).toEqual([]);
  });

  it('is LOW to override a value Flotilla did not apply, not once Flotilla applied it', () => {
    const input = { addressSettings: [{ match: '#', settings: { maxDeliveryAttempts: 20 } }] };
    const parts = { addressSettings: { '#': read({ maxDeliveryAttempts: 10, autoDeleteQueues: false }) } };
    expect(hazard(plan(input, parts), 'addressSetting:#:overrides-unmanaged')?.level).toBe('LOW');
    expect(ids(plan(input, parts, ['addressSetting:#']))).toEqual([]);
    // Only the two fields every read carries: nothing is in force there.
    expect(ids(plan(input, { addressSettings: { '#': read() } }))).toEqual([]);
  });

  it('is LOW for a declared match the node did not answer for, with no step', () => {
    const result = plan({ addressSettings: [{ match: '#', settings: { maxDeliveryAttempts: 5 } }] });
    expect(result.steps).toEqual([]);
    expect(hazard(result, 'addressSetting:#:unread')?.level).toBe('LOW');
  });
});

describe('hazards: security settings', () => {
  const service = { serviceUser: { username: 'flotilla', roles: ['amq'] } };
  const everything = role('amq', 'send', 'consume', 'manage', 'browse', 'createAddress');

  it('is HIGH when the service user loses a permission at "#"', () => {
    const result = plan(
      { securitySettings: [{ match: '#', roles: [{ name: 'amq', send: true, consume: true }] }] },
      { ...service, securitySettings: { '#': [everything] } },
      ['securitySetting:#'],
    );
    const found = hazard(result, 'securitySetting:#:locks-out-service');
    expect(found?.level).toBe('HIGH');
    expect(found?.message).toContain('"flotilla"');
    expect(found?.message).toContain('manage, browse at "#"');
  });

  it('checks the service addresses a match covers, with the most specific match winning whole', () => {
    const extra = { serviceAddresses: ['activemq.notifications'] };
    const lockout = plan(
      {
        securitySettings: [
          { match: '#', roles: [{ name: 'amq', send: true, consume: true, manage: true, browse: true }] },
          { match: 'activemq.#', roles: [{ name: 'ops', manage: true }] },
        ],
      },
      { ...service, securitySettings: { '#': [everything], 'activemq.#': [everything] } },
      ['securitySetting:#', 'securitySetting:activemq.#'],
      extra,
    );
    expect(hazard(lockout, 'securitySetting:activemq.#:locks-out-service')?.message).toContain(
      '"activemq.notifications"',
    );
    expect(ids(lockout)).not.toContain('securitySetting:#:locks-out-service');

    const elsewhere = plan(
      { securitySettings: [{ match: 'orders.#', roles: [{ name: 'app', send: true }] }] },
      { ...service, securitySettings: { 'orders.#': [everything] } },
      ['securitySetting:orders.#'],
      extra,
    );
    expect(ids(elsewhere)).toEqual([]);
  });

  it('takes the service roles from the request when given', () => {
    const result = plan(
      { securitySettings: [{ match: '#', roles: [{ name: 'amq', send: true }] }] },
      { securitySettings: { '#': [everything, role('svc', 'manage')] } },
      ['securitySetting:#'],
      { serviceRoles: ['svc'] },
    );
    expect(hazard(result, 'securitySetting:#:locks-out-service')?.message).toContain('roles svc');
  });

  it('is LOW when the service roles are unknown', () => {
    const result = plan(
      { securitySettings: [{ match: '#', roles: [] }] },
      { securitySettings: { '#': [everything] } },
      ['securitySetting:#'],
    );
    expect(ids(result)).toEqual(['securitySetting:#:lockout-unchecked']);
  });

  it('is HIGH for a role name that is a substring of another at the same match', () => {
    const result = plan(
      {
        securitySettings: [
          {
            match: 'orders.#',
            roles: [
              { name: 'adm', send: true },
              { name: 'amq-admin', manage: true, deleteAddress: true },
            ],
          },
        ],
      },
      { ...service, securitySettings: { 'orders.#': [] } },
    );
    const found = hazard(result, 'securitySetting:orders.#:role-substring');
    expect(found?.level).toBe('HIGH');
    expect(found?.message).toContain('"adm" gets manage, deleteAddress');
  });

  it('is LOW to override roles Flotilla did not apply', () => {
    const result = plan(
      { securitySettings: [{ match: 'orders.#', roles: [{ name: 'app', send: true }] }] },
      {
        ...service,
        securitySettings: { 'orders.#': [role('app', 'consume')] },
      },
    );
    expect(ids(result)).toEqual(['securitySetting:orders.#:overrides-unmanaged']);
  });
});

describe('hazards: re-created bridges and diverts', () => {
  it('is MEDIUM for a bridge destroy + create, naming the waiting queue and its messages', () => {
    const result = plan(
      { bridges: [{ name: 'to-dc2', queueName: 'outbound', staticConnectors: ['remote'], ha: true }] },
      { bridges: [bridge('to-dc2')], queues: [queue('outbound', { messageCount: 42 })] },
      ['bridge:to-dc2'],
    );
    const found = hazard(result, 'bridge:to-dc2:recreate-gap');
    expect(found?.level).toBe('MEDIUM');
    expect(found?.message).toContain('queue "outbound" (42 there now)');
    expect(result.steps.map((s) => s.hazardIds)).toEqual([['bridge:to-dc2:recreate-gap'], []]);
  });

  it('is nothing for a bridge that is only created or only removed', () => {
    expect(ids(plan({ bridges: [{ name: 'b', queueName: 'q', staticConnectors: ['r'] }] }))).toEqual([]);
    expect(ids(plan({}, { bridges: [bridge('b')] }, ['bridge:b']))).toEqual([]);
  });

  it('is MEDIUM for a divert destroy + create', () => {
    const result = plan(
      { diverts: [{ name: 'audit', address: 'orders', forwardingAddress: 'orders.audit', exclusive: true }] },
      { diverts: [divert('audit')] },
    );
    expect(ids(result)).toEqual(['divert:audit:recreate-gap']);
  });

  it('lists HIGH first and keeps ids stable between two plans of the same state', () => {
    const input = {
      queues: [{ name: 'orders', address: 'orders', filter: "k='b'" }],
      bridges: [{ name: 'b', queueName: 'orders', staticConnectors: ['r'], ha: true }],
    };
    const parts = { queues: [queue('orders', { filter: "k='a'" })], bridges: [bridge('b', { queueName: 'orders' })] };
    const first = plan(input, parts);
    expect(first.hazards.map((h) => h.level)).toEqual(['HIGH', 'MEDIUM']);
    expect(plan(input, parts)).toEqual(first);
  });
});
