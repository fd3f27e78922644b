import { describe, expect, it } from 'vitest';
import type { ConfigDocumentInput } from '../model/document.ts';
import { bridge, divert, doc, queue, read, role, snapshot, type SnapshotParts } from './plan-fixtures.ts';
import { planNode } from './planner.ts';

const node = { nodeId: 'n1', nodeName: 'broker-1' };
const plan = (input: ConfigDocumentInput, parts: SnapshotParts = {}, applied: string[] = []) =>
  planNode({ document: doc(input), snapshot: snapshot(parts), appliedKeys: new Set(applied), node });

describe('planNode, creation', () => {
  it('plans nothing when every declared item is in sync', () => {
    const result = plan(
      {
        addressSettings: [{ match: '#', settings: { deadLetterAddress: 'DLQ' } }],
        queues: [{ name: 'orders', address: 'orders' }],
      },
      { addressSettings: { '#': read({ deadLetterAddress: 'DLQ' }) }, queues: [queue('orders')] },
    );
    expect(result).toEqual({ nodeId: 'n1', nodeName: 'broker-1', steps: [], hazards: [] });
  });

  it('orders steps: settings, then queues, diverts, bridges', () => {
    const result = plan(
      {
        bridges: [{ name: 'to-dc2', queueName: 'outbound', staticConnectors: ['remote'] }],
        diverts: [{ name: 'audit', address: 'orders', forwardingAddress: 'orders.audit' }],
        queues: [{ name: 'outbound', address: 'outbound' }],
        securitySettings: [{ match: 'orders.#', roles: [{ name: 'app', send: true }] }],
        addressSettings: [{ match: 'orders.#', settings: { maxDeliveryAttempts: 5 } }],
      },
      { addressSettings: { 'orders.#': read() }, securitySettings: { 'orders.#': [] } },
    );
    expect(result.steps.map((s) => s.id)).toEqual([
      'addressSetting:orders.#:create',
      'securitySetting:orders.#:create',
      'queue:outbound:create',
      'divert:audit:create',
      'bridge:to-dc2:create',
    ]);
    expect(result.steps.find((s) => s.kind === 'divert')?.destinations).toEqual(['orders', 'orders.audit']);
  });

  it('writes the complete declared address-settings object, not the drifted fields', () => {
    const result = plan(
      { addressSettings: [{ match: '#', settings: { deadLetterAddress: 'DLQ', maxDeliveryAttempts: 5 } }] },
      { addressSettings: { '#': read({ deadLetterAddress: 'DLQ', maxDeliveryAttempts: 6 }) } },
      ['addressSetting:#'],
    );
    const [step] = result.steps;
    expect(step?.action).toBe('update');
    expect(step?.write).toEqual({
      op: 'addAddressSettings',
      match: '#',
      settings: { deadLetterAddress: 'DLQ', maxDeliveryAttempts: 5 },
    });
    expect(step?.summary).toContain('maxDeliveryAttempts 6 → 5');
  });

  it('writes every role with all ten permissions', () => {
    const result = plan(
      { securitySettings: [{ match: '#', roles: [{ name: 'app', send: true }] }] },
      { securitySettings: { '#': [role('app', 'send', 'consume')] } },
      ['securitySetting:#'],
    );
    expect(result.steps[0]?.write).toEqual({ op: 'addSecuritySettings', match: '#', roles: [role('app', 'send')] });
  });
});

describe('planNode, queues', () => {
  it('updates a mutable field with the full queue, filter included', () => {
    const result = plan(
      { queues: [{ name: 'orders', address: 'orders', filter: "k='a'", maxConsumers: 2 }] },
      { queues: [queue('orders', { filter: "k='a'" })] },
    );
    expect(result.steps.map((s) => s.id)).toEqual(['queue:orders:update']);
    const write = result.steps[0]?.write;
    expect(write?.op).toBe('updateQueue');
    expect(write?.op === 'updateQueue' && write.queue).toMatchObject({
      filter: "k='a'",
      maxConsumers: 2,
      address: 'orders',
    });
  });

  it.each([
    ['address', { address: 'orders.v2' }, { address: 'orders' }],
    ['durable', { durable: false }, {}],
    ['lastValue', { lastValue: true }, {}],
    ['lastValueKey', { lastValueKey: 'k' }, {}],
  ])('destroys and re-creates when %s changes', (_field, declared, live) => {
    const result = plan(
      { queues: [{ name: 'orders', address: 'orders', ...declared }] },
      { queues: [queue('orders', live)] },
    );
    expect(result.steps.map((s) => s.write.op)).toEqual(['destroyQueue', 'createQueue']);
    expect(result.steps.map((s) => s.id)).toEqual(['queue:orders:remove', 'queue:orders:create']);
  });
});

describe('planNode, diverts', () => {
  const declared = { name: 'audit', address: 'orders', forwardingAddress: 'orders.audit' };

  it('updates with the full divert, keeping the live address, exclusive and routing name', () => {
    const result = plan(
      { diverts: [{ ...declared, forwardingAddress: 'orders.audit2', filter: "k='a'" }] },
      { diverts: [divert('audit', { routingName: 'r-1' })] },
    );
    expect(result.steps.map((s) => s.id)).toEqual(['divert:audit:update']);
    expect(result.steps[0]?.write).toEqual({
      op: 'updateDivert',
      divert: {
        name: 'audit',
        address: 'orders',
        forwardingAddress: 'orders.audit2',
        routingName: 'r-1',
        exclusive: false,
        filter: "k='a'",
        routingType: 'STRIP',
        transformerClassName: null,
      },
    });
  });

  it.each([
    ['exclusive changes', { exclusive: true }, {}],
    ['the address changes', { address: 'billing' }, {}],
    ['a declared routing name changes', { routingName: 'mine' }, {}],
    ['a transformer is removed', {}, { transformerClassName: 'com.example.T' }],
  ])('destroys and re-creates when %s', (_why, change, live) => {
    const result = plan({ diverts: [{ ...declared, ...change }] }, { diverts: [divert('audit', live)] });
    expect(result.steps.map((s) => s.write.op)).toEqual(['destroyDivert', 'createDivert']);
  });

  it('replaces a transformer with an update', () => {
    const result = plan(
      { diverts: [{ ...declared, transformerClassName: 'com.example.U' }] },
      { diverts: [divert('audit', { transformerClassName: 'com.example.T' })] },
    );
    expect(result.steps.map((s) => s.write.op)).toEqual(['updateDivert']);
  });
});

describe('planNode, bridges', () => {
  const declared = {
    name: 'to-dc2',
    queueName: 'outbound',
    staticConnectors: ['remote'],
    user: 'b',
    passwordRef: 'dc2',
  };

  it('creates without a password in the write, and shows the credential reference', () => {
    const [step] = plan({ bridges: [declared] }).steps;
    expect(step?.write.op).toBe('createBridge');
    expect(JSON.stringify(step?.write)).not.toMatch(/password/i);
    expect(step?.write.op === 'createBridge' && step.write.bridge.user).toBe('b');
    expect(step?.passwordRef).toBe('dc2');
    expect(step?.summary).toContain('vault credential "dc2"');
  });

  it('always destroys and re-creates a changed bridge', () => {
    const result = plan({ bridges: [declared] }, { bridges: [bridge('to-dc2', { ha: true })] });
    expect(result.steps.map((s) => s.id)).toEqual(['bridge:to-dc2:remove', 'bridge:to-dc2:create']);
  });
});

describe('planNode, removals', () => {
  const live: SnapshotParts = {
    addressSettings: { 'old.#': read({ maxDeliveryAttempts: 3 }) },
    securitySettings: { 'old.#': [role('app', 'send')] },
    queues: [queue('old')],
    diverts: [divert('old-divert', { address: 'old' })],
    bridges: [bridge('old-bridge', { queueName: 'old' })],
  };
  const applied = [
    'queue:old',
    'addressSetting:old.#',
    'bridge:old-bridge',
    'securitySetting:old.#',
    'divert:old-divert',
  ];

  it('removes what Flotilla applied, no longer declared and still live, in reverse dependency order', () => {
    expect(plan({}, live, applied).steps.map((s) => s.id)).toEqual([
      'bridge:old-bridge:remove',
      'divert:old-divert:remove',
      'queue:old:remove',
      'securitySetting:old.#:remove',
      'addressSetting:old.#:remove',
    ]);
  });

  it('never removes what Flotilla did not apply, nor what is gone already', () => {
    expect(plan({}, live, []).steps).toEqual([]);
    expect(plan({}, {}, applied).steps).toEqual([]);
  });

  it('puts removals after every creation', () => {
    const result = plan({ queues: [{ name: 'new', address: 'new' }] }, live, ['queue:old']);
    expect(result.steps.map((s) => s.id)).toEqual(['queue:new:create', 'queue:old:remove']);
  });
});
