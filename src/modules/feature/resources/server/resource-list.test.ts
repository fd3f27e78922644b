import { describe, expect, it } from 'vitest';
import { listRows, remoteAddressMatches, type ListSpec } from './resource-list.ts';

interface Row {
  key: string;
  queue: string;
  delivering: number;
  createdAt: string | null;
}

const rows: Row[] = [
  { key: 'n1/1', queue: 'orders', delivering: 5, createdAt: '2026-11-25T10:00:00.000Z' },
  { key: 'n2/1', queue: 'orders', delivering: 0, createdAt: null },
  { key: 'n1/2', queue: 'invoices', delivering: 12, createdAt: '2026-11-25T09:00:00.000Z' },
  { key: 'n2/2', queue: 'orders.eu', delivering: 2, createdAt: '2026-11-25T11:00:00.000Z' },
];

const spec: ListSpec<Row, 'queue'> = {
  searchText: (row) => row.queue,
  sortValues: { delivering: (row) => row.delivering, createdAt: (row) => row.createdAt, queue: (row) => row.queue },
  filters: { queue: (row, value) => row.queue === value },
};

const keys = (result: { items: Row[] }) => result.items.map((row) => row.key);

describe('listing merged rows', () => {
  it('filters exactly, searches by part, and counts before paging', () => {
    expect(keys(listRows(rows, spec, { sort: 'queue', page: 1, pageSize: 10, filters: { queue: 'orders' } }))).toEqual([
      'n1/1',
      'n2/1',
    ]);
    const searched = listRows(rows, spec, { q: 'ORD', sort: 'queue', page: 2, pageSize: 2, filters: {} });
    expect(searched.total).toBe(3);
    expect(keys(searched)).toEqual(['n2/2']);
  });

  it('sorts numbers as numbers both ways and keeps missing values last', () => {
    expect(keys(listRows(rows, spec, { sort: '-delivering', page: 1, pageSize: 10, filters: {} }))).toEqual([
      'n1/2',
      'n1/1',
      'n2/2',
      'n2/1',
    ]);
    expect(keys(listRows(rows, spec, { sort: 'createdAt', page: 1, pageSize: 10, filters: {} })).at(-1)).toBe('n2/1');
    expect(keys(listRows(rows, spec, { sort: '-createdAt', page: 1, pageSize: 10, filters: {} })).at(-1)).toBe('n2/1');
  });

  it('matches a remote address by host, host:port or the broker’s leading slash form', () => {
    expect(remoteAddressMatches('/127.0.0.1:53122', '127.0.0.1')).toBe(true);
    expect(remoteAddressMatches('127.0.0.1:53122', '/127.0.0.1:53122')).toBe(true);
    expect(remoteAddressMatches('10.0.0.7:53122', '127.0.0.1')).toBe(false);
  });
});
