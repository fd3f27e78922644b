// For lists the server hands over whole (a cluster's nodes, a queue's cells, a probe's answer, a modal's rows): the
// same q/sort/page applied here, in the shape the one table takes, so these lists search, sort and page like every
// other.
import { pageLocally, type ListStateApi } from './list-state.ts';

export interface LocalSource {
  readonly isPending?: boolean;
  readonly isFetching?: boolean;
  readonly error?: unknown;
  readonly refetch?: () => unknown;
}

export function localQuery<Row, Filter extends string>(
  rows: readonly Row[] | undefined,
  list: ListStateApi<Filter>,
  options: { text: (row: Row) => string; sortValue: (row: Row, field: string) => string | number },
  source: LocalSource = {},
) {
  return {
    data: rows ? pageLocally(rows, list.state, options) : undefined,
    error: source.error ?? null,
    isPending: source.isPending ?? rows === undefined,
    isFetching: source.isFetching ?? false,
    refetch: source.refetch ?? (() => undefined),
  };
}
