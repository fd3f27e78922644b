import { describe, expect, it } from 'vitest';
import type { ConfigSnapshot } from '@/modules/platform/broker/index.ts';
import { adopt } from './adopt.ts';
import { bridge, divert, queue, read, role, snapshot, type SnapshotParts } from './plan-fixtures.ts';
import { planNode } from './planner.ts';

const rootRead = read({
  deadLetterAddress: 'DLQ',
  expiryAddress: 'ExpiryQueue',
  maxDeliveryAttempts: 10,
  redeliveryMultiplier: 1.0,
  autoCreateQueues: true,
  autoDeleteQueues: false,
  addressFullMessagePolicy: 'PAGE',
  enableMetrics: true, // a broker key the document does not declare
});
const roles = [role('amq', 'send', 'consume', 'manage', 'browse', 'createAddress'), role('app', 'send', 'consume')];

function node(nodeName: string, parts: SnapshotParts = {}) {
  return {
    nodeName,
    snapshot: snapshot({
      addressSettings: { '#': rootRead },
      securitySettings: { '#': roles },
      queues: [
        queue('orders', { messageCount: nodeName === 'b1' ? 5 : 0, consumerCount: 1 }),
        queue('DLQ'),
        queue('invoices', { filter: "region='eu'", lastValue: true, lastValueKey: 'id' }),
        queue('tmp-1', { temporary: true }),
        queue('auto', { autoCreated: true }),
        queue('flotilla.capture.x'),
        queue('activemq.management.q', { internal: false }),
        queue('$sys.mqtt.sessions'),
      ],
      diverts: [
        divert('audit', { routingName: `random-${nodeName}` }),
        divert('pinned', { routingName: 'fixed', filter: "k='a'" }),
        divert('flotilla.tap.orders'),
      ],
      bridges: [bridge('to-dc2')],
      ...parts,
    }),
  };
}

const planAgainst = (document: ReturnType<typeof adopt>['document'], snap: ConfigSnapshot) =>
  planNode({ document, snapshot: snap, appliedKeys: new Set(), node: { nodeId: 'x', nodeName: 'x' } });

describe('adopt', () => {
  const nodes = [node('b1'), node('b2')];
  const { document, notes } = adopt(nodes);

  it('takes the document-schema fields read at "#", and no unknown or always-present key', () => {
    expect(document.addressSettings).toEqual([
      {
        match: '#',
        settings: {
          addressFullMessagePolicy: 'PAGE',
          autoCreateQueues: true,
          autoDeleteQueues: false,
          deadLetterAddress: 'DLQ',
          expiryAddress: 'ExpiryQueue',
          maxDeliveryAttempts: 10,
          redeliveryMultiplier: 1,
        },
      },
    ]);
    expect(notes.some((n) => n.includes('"#" only'))).toBe(true);
  });

  it('takes the roles at "#"', () => {
    expect(document.securitySettings).toHaveLength(1);
    expect(document.securitySettings[0]?.roles.map((r) => r.name)).toEqual(['amq', 'app']);
  });

  it('takes queues alike on every node, skipping temporary, internal, auto-created and reserved names', () => {
    expect(document.queues.map((q) => q.name)).toEqual(['DLQ', 'invoices', 'orders']);
    expect(document.queues.find((q) => q.name === 'invoices')).toMatchObject({
      filter: "region='eu'",
      lastValueKey: 'id',
    });
  });

  it('takes diverts alike, declaring a routing name only when every node has the same', () => {
    expect(document.diverts.map((d) => [d.name, d.routingName])).toEqual([
      ['audit', undefined],
      ['pinned', 'fixed'],
    ]);
  });

  it('skips bridges with a note', () => {
    expect(document.bridges).toEqual([]);
    expect(notes).toContain(
      '1 bridges skipped: 14 of 27 fields and the credential cannot be read; declare them by hand.',
    );
  });

  it('plans zero steps against the nodes it was read from', () => {
    for (const { snapshot: snap } of nodes) {
      const result = planAgainst(document, snap);
      expect(result.steps).toEqual([]);
      expect(result.hazards).toEqual([]);
    }
  });

  it('leaves out what differs between nodes or is missing on one, with a note each', () => {
    const other = node('b2', {
      addressSettings: { '#': { ...rootRead, maxDeliveryAttempts: 5, managementBrowsePageSize: 500 } },
      queues: [queue('orders', { maxConsumers: 1 }), queue('DLQ')],
      diverts: [divert('audit', { forwardingAddress: 'elsewhere' })],
    });
    const mixed = adopt([node('b1'), other]);
    expect(mixed.document.addressSettings[0]?.settings.maxDeliveryAttempts).toBeUndefined();
    expect(mixed.document.addressSettings[0]?.settings.managementBrowsePageSize).toBeUndefined();
    expect(mixed.document.queues.map((q) => q.name)).toEqual(['DLQ']);
    expect(mixed.document.diverts).toEqual([]);
    expect(mixed.notes).toEqual(
      expect.arrayContaining([
        'Address setting maxDeliveryAttempts at "#" differs between nodes (b1=10, b2=5): left out.',
        'Queue "orders" differs between nodes: left out.',
        'Queue "invoices" is missing on b2: left out.',
        'Divert "audit" differs between nodes: left out.',
        'Divert "pinned" is missing on b2: left out.',
      ]),
    );
    for (const { snapshot: snap } of [node('b1'), other]) expect(planAgainst(mixed.document, snap).steps).toEqual([]);
  });

  it('keeps managementBrowsePageSize only when someone changed it from 200', () => {
    const tuned = adopt([node('b1', { addressSettings: { '#': { ...rootRead, managementBrowsePageSize: 500 } } })]);
    expect(tuned.document.addressSettings[0]?.settings.managementBrowsePageSize).toBe(500);
    expect(
      planAgainst(
        tuned.document,
        node('b1', { addressSettings: { '#': { ...rootRead, managementBrowsePageSize: 500 } } }).snapshot,
      ).steps,
    ).toEqual([]);
  });

  it('declares no roles at "#" when none are in force, or when they differ', () => {
    expect(adopt([node('b1', { securitySettings: { '#': [] } })]).document.securitySettings).toEqual([]);
    const differing = adopt([node('b1'), node('b2', { securitySettings: { '#': [role('amq', 'send')] } })]);
    expect(differing.document.securitySettings).toEqual([]);
    expect(differing.notes).toContain('The roles at "#" differ between nodes: left out.');
  });
});
