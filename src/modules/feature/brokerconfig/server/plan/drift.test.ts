import { describe, expect, it } from 'vitest';
import { driftOfNode } from './drift.ts';
import { bridge, divert, doc, queue, read, role, snapshot } from './plan-fixtures.ts';

const only = (items: ReturnType<typeof driftOfNode>) => {
  expect(items).toHaveLength(1);
  return items[0];
};

describe('driftOfNode, address settings', () => {
  const declared = doc({
    addressSettings: [{ match: 'orders.#', settings: { maxDeliveryAttempts: 5, redeliveryMultiplier: 1 } }],
  });

  it('compares only the declared fields, numbers numerically (1.0 is 1, "5" is 5)', () => {
    const live = snapshot({
      addressSettings: {
        'orders.#': read({ maxDeliveryAttempts: '5', redeliveryMultiplier: 1.0, expiryAddress: 'X' }),
      },
    });
    expect(only(driftOfNode(declared, live))).toEqual({
      kind: 'addressSetting',
      key: 'orders.#',
      state: 'IN_SYNC',
      fields: [],
    });
  });

  it('reports a declared field read with another value as DRIFTED, with both values', () => {
    const live = snapshot({
      addressSettings: { 'orders.#': read({ maxDeliveryAttempts: 10, redeliveryMultiplier: 1 }) },
    });
    const item = only(driftOfNode(declared, live));
    expect(item?.state).toBe('DRIFTED');
    expect(item?.fields).toEqual([{ field: 'maxDeliveryAttempts', declared: 5, live: 10 }]);
  });

  it('is MISSING when no declared field has a value at the match', () => {
    const live = snapshot({ addressSettings: { 'orders.#': read() } });
    expect(only(driftOfNode(declared, live))?.state).toBe('MISSING');
  });

  it('is DRIFTED, not MISSING, when one declared field is unset among others the match has (found on the demo fleet)', () => {
    const live = snapshot({ addressSettings: { 'orders.#': read({ redeliveryMultiplier: 1 }) } });
    const item = only(driftOfNode(declared, live));
    expect(item?.state).toBe('DRIFTED');
    expect(item?.fields).toEqual([{ field: 'maxDeliveryAttempts', declared: 5, live: null }]);
  });

  it('is UNVERIFIABLE when the match was not read', () => {
    const item = only(driftOfNode(declared, snapshot()));
    expect(item?.state).toBe('UNVERIFIABLE');
    expect(item?.note).toMatch(/not read/);
  });
});

describe('driftOfNode, security settings', () => {
  const declared = doc({
    securitySettings: [
      {
        match: '#',
        roles: [
          { name: 'amq', send: true, consume: true, manage: true },
          { name: 'app', send: true },
        ],
      },
    ],
  });

  it('compares the role set exactly, ignoring order', () => {
    const live = snapshot({
      securitySettings: { '#': [role('app', 'send'), role('amq', 'send', 'consume', 'manage')] },
    });
    expect(only(driftOfNode(declared, live))?.state).toBe('IN_SYNC');
  });

  it('names each role whose permissions differ, and a role only one side has', () => {
    const live = snapshot({ securitySettings: { '#': [role('amq', 'send', 'consume'), role('ops', 'browse')] } });
    const item = only(driftOfNode(declared, live));
    expect(item?.state).toBe('DRIFTED');
    expect(item?.fields).toEqual([
      { field: 'role:amq', declared: 'send consume manage', live: 'send consume' },
      { field: 'role:app', declared: 'send', live: null },
      { field: 'role:ops', declared: null, live: 'browse' },
    ]);
  });

  it('is MISSING when no role is in force at the match', () => {
    expect(only(driftOfNode(declared, snapshot({ securitySettings: { '#': [] } })))?.state).toBe('MISSING');
  });
});

describe('driftOfNode, diverts', () => {
  const base = { name: 'audit', address: 'orders', forwardingAddress: 'orders.audit' };

  it('ignores the routing name when not declared, and treats an absent filter as null', () => {
    const live = snapshot({ diverts: [divert('audit', { routingName: 'random' })] });
    expect(only(driftOfNode(doc({ diverts: [base] }), live))?.state).toBe('IN_SYNC');
  });

  it('compares the routing name when declared, and the other readable fields', () => {
    const live = snapshot({ diverts: [divert('audit', { routingName: 'random', filter: "kind='x'" })] });
    const item = only(driftOfNode(doc({ diverts: [{ ...base, routingName: 'audit-route' }] }), live));
    expect(item?.fields.map((f) => f.field).sort()).toEqual(['filter', 'routingName']);
  });

  it('is MISSING when no divert has the name', () => {
    expect(only(driftOfNode(doc({ diverts: [base] }), snapshot()))?.state).toBe('MISSING');
  });
});

describe('driftOfNode, bridges', () => {
  const base = { name: 'to-dc2', queueName: 'outbound', staticConnectors: ['remote'] };

  it('compares the readable fields only and says which declared ones cannot be verified', () => {
    const declared = doc({ bridges: [{ ...base, user: 'bridge', passwordRef: 'dc2', confirmationWindowSize: 1024 }] });
    const item = only(driftOfNode(declared, snapshot({ bridges: [bridge('to-dc2')] })));
    expect(item?.state).toBe('IN_SYNC');
    expect(item?.note).toMatch(/13 fields/);
    expect(item?.note).toMatch(/confirmationWindowSize, user, password/);
  });

  it('reports a readable field that differs, and finds an instance `<name>-<i>`', () => {
    const live = snapshot({ bridges: [bridge('to-dc2-0', { retryInterval: 500 })] });
    const item = only(driftOfNode(doc({ bridges: [base] }), live));
    expect(item?.fields).toEqual([{ field: 'retryInterval', declared: 2000, live: 500 }]);
  });

  it('compares static connectors in order', () => {
    const live = snapshot({ bridges: [bridge('to-dc2', { staticConnectors: ['b', 'a'] })] });
    const item = only(driftOfNode(doc({ bridges: [{ ...base, staticConnectors: ['a', 'b'] }] }), live));
    expect(item?.fields.map((f) => f.field)).toEqual(['staticConnectors']);
  });
});

describe('driftOfNode, queues', () => {
  it('compares the readable queue fields, defaults included', () => {
    const declared = doc({ queues: [{ name: 'orders', address: 'orders', maxConsumers: 3 }] });
    const live = snapshot({ queues: [queue('orders', { maxConsumers: 3, durable: false, messageCount: 9 })] });
    const item = only(driftOfNode(declared, live));
    expect(item?.fields).toEqual([{ field: 'durable', declared: true, live: false }]);
  });

  it('is MISSING when absent and IN_SYNC when equal', () => {
    const declared = doc({ queues: [{ name: 'orders', address: 'orders' }] });
    expect(only(driftOfNode(declared, snapshot()))?.state).toBe('MISSING');
    expect(only(driftOfNode(declared, snapshot({ queues: [queue('orders')] })))?.state).toBe('IN_SYNC');
  });
});
