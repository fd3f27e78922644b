import { describe, expect, it } from 'vitest';
import { createPartitionSql, dropExpiredPartitionsSql, partitionFor, partitionsAhead } from './partitions.ts';
import { queueRowsOf, tierCPageCount, toQueueRow } from './queue-rows.ts';
import { isStale, queueDataStale } from '../read/staleness.ts';

describe('staleness', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  it('is stale after two intervals without a completed sweep, and when never swept', () => {
    expect(isStale(new Date('2026-11-22T11:59:51Z'), 5_000, now)).toBe(false);
    expect(isStale(new Date('2026-11-22T11:59:50Z'), 5_000, now)).toBe(false);
    expect(isStale(new Date('2026-11-22T11:59:49Z'), 5_000, now)).toBe(true);
    expect(isStale(null, 5_000, now)).toBe(true);
  });
  it('judges queue numbers by the newer of the tier-B and tier-C sweeps', () => {
    const old = new Date('2026-11-22T11:00:00Z');
    const fresh = new Date('2026-11-22T11:59:59Z');
    expect(queueDataStale(old, fresh, 15_000, now)).toBe(false);
    expect(queueDataStale(fresh, undefined, 15_000, now)).toBe(false);
    expect(queueDataStale(old, old, 15_000, now)).toBe(true);
    expect(queueDataStale(undefined, undefined, 15_000, now)).toBe(true);
  });
});

describe('metric partitions', () => {
  it('names a UTC day and spans exactly that day', () => {
    const partition = partitionFor(new Date('2026-11-22T23:59:59.999Z'));
    expect(partition).toEqual({
      parent: 'metric_sample',
      name: 'metric_sample_p20261122',
      from: new Date('2026-11-22T00:00:00Z'),
      to: new Date('2026-11-23T00:00:00Z'),
    });
    expect(partitionFor(new Date('2026-11-23T00:00:00Z')).name).toBe('metric_sample_p20261123');
    expect(partitionFor(new Date('2026-11-23T00:00:00Z'), 'metric_minute').name).toBe('metric_minute_p20261123');
  });
  it('plans today and the days ahead across a month end', () => {
    expect(partitionsAhead(new Date('2026-11-30T10:00:00Z'), 2).map((partition) => partition.name)).toEqual([
      'metric_sample_p20261130',
      'metric_sample_p20261201',
      'metric_sample_p20261202',
      'metric_minute_p20261130',
      'metric_minute_p20261201',
      'metric_minute_p20261202',
    ]);
  });
  it('writes the DDL with the bounds and the cutoff', () => {
    expect(createPartitionSql(partitionFor(new Date('2026-11-22T05:00:00Z')))).toContain(
      `"metric_sample_p20261122" PARTITION OF metric_sample FOR VALUES FROM ('2026-11-22T00:00:00.000Z') TO ('2026-11-23T00:00:00.000Z')`,
    );
    expect(createPartitionSql(partitionFor(new Date('2026-11-22T05:00:00Z'), 'metric_minute'))).toContain(
      `"metric_minute_p20261122" PARTITION OF metric_minute FOR VALUES FROM`,
    );
    expect(dropExpiredPartitionsSql(new Date('2026-11-15T05:00:00Z'))).toContain("<= '2026-11-15T05:00:00.000Z'");
    expect(dropExpiredPartitionsSql(new Date('2026-11-15T05:00:00Z'))).toContain(
      "IN ('metric_sample', 'metric_minute')",
    );
  });
});

describe('queue listing rows', () => {
  const raw = {
    name: 'orders',
    address: 'orders.in',
    routingType: 'MULTICAST',
    messageCount: '12',
    consumerCount: '2',
    deliveringCount: '1',
    messagesAdded: '40',
    messagesAcked: '27',
    messagesExpired: '1',
    messagesKilled: '2',
    paused: 'false',
    durable: 'true',
    temporary: 'false',
    internalQueue: 'false',
  };
  it('reads the string values of a listing row', () => {
    expect(toQueueRow(raw)).toEqual({
      address: 'orders.in',
      name: 'orders',
      routingType: 'MULTICAST',
      messageCount: 12,
      consumerCount: 2,
      deliveringCount: 1,
      messagesAdded: 40,
      messagesAcked: 27,
      messagesExpired: 1,
      messagesKilled: 2,
      paused: false,
      durable: true,
      temporary: false,
      internal: false,
    });
    expect(toQueueRow({ address: 'x' })).toBeUndefined();
    expect(toQueueRow({ name: 'q', messageCount: 'junk' })?.messageCount).toBe(0);
  });
  it('keeps one row per key when pages overlap', () => {
    const rows = queueRowsOf([raw, { ...raw, messageCount: '13' }, { ...raw, routingType: 'ANYCAST' }]);
    expect(rows.map((row) => [row.routingType, row.messageCount])).toEqual([
      ['MULTICAST', 13],
      ['ANYCAST', 12],
    ]);
  });
  it('leaves out the notification subscriptions, which are plumbing', () => {
    const subscription = { ...raw, address: 'activemq.notifications', name: 'a1b2c3', internalQueue: 'true' };
    expect(queueRowsOf([raw, subscription]).map((row) => row.address)).toEqual([raw.address]);
  });
  it('leaves out the subscriptions of a node’s own notification address, and of the default one still', () => {
    const custom = { ...raw, address: 'ops.events', name: 'tap' };
    const usual = { ...raw, address: 'activemq.notifications', name: 'b2' };
    expect(queueRowsOf([raw, custom, usual], 'ops.events').map((row) => row.address)).toEqual([raw.address]);
    expect(queueRowsOf([raw, custom], '').map((row) => row.address)).toEqual([raw.address, 'ops.events']);
  });
  it('asks tier C for the known listing plus room', () => {
    expect(tierCPageCount(0, 2000)).toBe(1);
    expect(tierCPageCount(1950, 2000)).toBe(2);
    expect(tierCPageCount(10_003, 2000)).toBe(6);
    expect(tierCPageCount(10_003, 1000)).toBe(12);
  });
});
