import { describe, expect, it } from 'vitest';
import { factsOf } from './node-facts.ts';

const node = { nodeId: 'n1', nodeName: 'broker-a', logicalNode: 'uuid-a' };
const thresholds = { memoryWarnPercent: 80, diskWarnMargin: 10 };
const address = (name: string, limit: number, paging: boolean) => ({
  name,
  addressLimitPercent: String(limit),
  paging: String(paging),
  internal: 'false',
  addressSize: '1048576',
  numberOfPages: paging ? '3' : '0',
});

function facts(attributes: Record<string, unknown>, rows: Array<Record<string, unknown>>, policies = new Map()) {
  return factsOf(node, { facts: { attributes, addresses: { rows, total: rows.length } }, policies }, thresholds);
}

describe('node facts', () => {
  it('reads a quiet node without warnings', () => {
    const quiet = facts(
      {
        Version: '2.44.0',
        UptimeMillis: 5000,
        AddressMemoryUsagePercentage: 3,
        DiskStoreUsage: 0.42,
        MaxDiskUsage: 90,
      },
      [address('orders', 10, false)],
    );
    expect(quiet).toMatchObject({ version: '2.44.0', uptimeMs: 5000, disk: { usedPercent: 42, maxPercent: 90 } });
    expect(quiet.warnings).toEqual([]);
  });

  it('warns of memory and disk near their limits, paging, full and near-full addresses', () => {
    const busy = facts(
      {
        AddressMemoryUsagePercentage: 85,
        AddressMemoryUsage: 85,
        GlobalMaxSize: 100,
        DiskStoreUsage: 0.91,
        MaxDiskUsage: 90,
      },
      [
        address('paged', 100, true),
        address('blocked', 100, false),
        address('filling', 90, false),
        address('ok', 5, false),
      ],
      new Map([['blocked', 'BLOCK']]),
    );
    expect(busy.warnings.map((warning) => [warning.code, warning.level])).toEqual([
      ['memory', 'warning'],
      ['disk', 'danger'],
      ['paging', 'warning'],
      ['full', 'danger'],
      ['near-full', 'warning'],
    ]);
    expect(busy.pagingAddresses.map((entry) => entry.name)).toEqual(['paged']);
    expect(busy.fullAddresses).toEqual([{ name: 'blocked', limitPercent: 100, policy: 'BLOCK' }]);
    expect(busy.warnings.find((warning) => warning.code === 'full')?.message).toContain('producers are blocked');
  });

  it('leaves internal addresses out', () => {
    const internal = facts({}, [{ ...address('activemq.notifications', 100, true), internal: 'true' }]);
    expect(internal.pagingAddresses).toEqual([]);
  });
});
