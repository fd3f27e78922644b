// Filtering, sorting and paging of merged live-through rows, in memory (the broker's own sort and filter cover one
// field of one node; the merge of every node's rows needs ours). Sorting is stable and puts missing values last.

type SortValue = string | number | boolean | null;

export interface ListSpec<Row, Filter extends string> {
  /** The text `q` is looked for in (case-insensitive). */
  readonly searchText: (row: Row) => string;
  readonly sortValues: Readonly<Record<string, (row: Row) => SortValue>>;
  /** Each filter keeps a row when it holds for the value given. */
  readonly filters: Readonly<Record<Filter, (row: Row, value: string) => boolean>>;
}

export interface ListRequest<Filter extends string> {
  readonly q?: string | undefined;
  readonly sort: string;
  readonly page: number;
  readonly pageSize: number;
  readonly filters: Partial<Record<Filter, string | undefined>>;
}

function compareValues(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a).localeCompare(String(b), 'en', { numeric: true });
}

export function listRows<Row extends { key: string }, Filter extends string>(
  rows: readonly Row[],
  spec: ListSpec<Row, Filter>,
  request: ListRequest<Filter>,
): { items: Row[]; total: number } {
  const needle = request.q?.toLowerCase();
  const active = (Object.entries(request.filters) as Array<[Filter, string | undefined]>).filter(
    (entry): entry is [Filter, string] => entry[1] !== undefined && entry[1] !== '',
  );
  const matching = rows.filter(
    (row) =>
      (!needle || spec.searchText(row).toLowerCase().includes(needle)) &&
      active.every(([filter, value]) => spec.filters[filter](row, value)),
  );
  const descending = request.sort.startsWith('-');
  const valueOf = spec.sortValues[descending ? request.sort.slice(1) : request.sort];
  if (valueOf) {
    const keyed = matching.map((row) => ({ row, value: valueOf(row) }));
    keyed.sort((a, b) => {
      // Missing values stay last in both directions.
      if (a.value === null || b.value === null) return compareValues(a.value, b.value);
      const order = compareValues(a.value, b.value);
      return (descending ? -order : order) || a.row.key.localeCompare(b.row.key);
    });
    matching.splice(0, matching.length, ...keyed.map(({ row }) => row));
  }
  const start = (request.page - 1) * request.pageSize;
  return { items: matching.slice(start, start + request.pageSize), total: matching.length };
}

/** A remote address matches by host, by host:port, or by any part typed (the port changes per connection). */
export function remoteAddressMatches(remoteAddress: string, wanted: string): boolean {
  return remoteAddress.replace(/^\//, '').toLowerCase().includes(wanted.replace(/^\//, '').toLowerCase());
}
