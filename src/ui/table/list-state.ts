// The view state of a list (q, sort, page, pageSize and the screen's own filters) lives in the URL query string,
// so reload, back and a shared link restore the view. Defaults are left out of the URL to keep links short.
'use client';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useMemo, useState } from 'react';

export const PAGE_SIZES = [10, 25, 50, 100] as const;

export interface ListDefaults<Filter extends string> {
  readonly sort: string;
  readonly pageSize?: number;
  /** Names of the screen's own filters kept in the URL, e.g. ['actor', 'outcome']. */
  readonly filters?: readonly Filter[];
  /** For a second list on one page: its parameters are `<prefix>.q`, `<prefix>.sort`, … */
  readonly prefix?: string;
}

export interface ListState<Filter extends string> {
  readonly q: string;
  readonly sort: string;
  readonly page: number;
  readonly pageSize: number;
  readonly filters: Readonly<Record<Filter, string | undefined>>;
}

export interface ListStateApi<Filter extends string = never> {
  readonly state: ListState<Filter>;
  readonly defaults: { readonly sort: string; readonly pageSize: number };
  /** Typing: replaces the history entry instead of adding one per keystroke. */
  readonly setQ: (q: string) => void;
  readonly setSort: (sort: string) => void;
  readonly setPage: (page: number) => void;
  readonly setPageSize: (pageSize: number) => void;
  readonly setFilter: (name: Filter, value: string | undefined) => void;
  readonly reset: () => void;
}

const positive = (text: string | null, fallback: number) => {
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

export function useListState<Filter extends string = never>(defaults: ListDefaults<Filter>): ListStateApi<Filter> {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const defaultPageSize = defaults.pageSize ?? 25;
  const filterNames = defaults.filters ?? [];
  const filterKey = filterNames.join(',');
  const prefix = defaults.prefix ? `${defaults.prefix}.` : '';

  const state = useMemo<ListState<Filter>>(
    () => ({
      q: params.get(`${prefix}q`) ?? '',
      sort: params.get(`${prefix}sort`) ?? defaults.sort,
      page: positive(params.get(`${prefix}page`), 1),
      pageSize: positive(params.get(`${prefix}pageSize`), defaultPageSize),
      filters: Object.fromEntries(
        filterKey
          .split(',')
          .filter(Boolean)
          .map((name) => [name, params.get(`${prefix}${name}`) ?? undefined]),
      ) as Record<Filter, string | undefined>,
    }),
    [params, defaults.sort, defaultPageSize, filterKey, prefix],
  );

  const update = useCallback(
    (changes: Record<string, string | number | undefined>, mode: 'push' | 'replace' = 'push') => {
      const next = new URLSearchParams(params.toString());
      // Anything but a page change starts again at page 1.
      if (!('page' in changes)) next.delete(`${prefix}page`);
      for (const [name, value] of Object.entries(changes)) {
        const key = `${prefix}${name}`;
        const isDefault =
          value === undefined ||
          value === '' ||
          (name === 'sort' && value === defaults.sort) ||
          (name === 'page' && value === 1) ||
          (name === 'pageSize' && value === defaultPageSize);
        if (isDefault) next.delete(key);
        else next.set(key, String(value));
      }
      const query = next.toString();
      const url = query ? `${pathname}?${query}` : pathname;
      if (mode === 'push') router.push(url, { scroll: false });
      else router.replace(url, { scroll: false });
    },
    [params, pathname, router, defaults.sort, defaultPageSize, prefix],
  );

  return useMemo(
    () => ({
      state,
      defaults: { sort: defaults.sort, pageSize: defaultPageSize },
      setQ: (q) => update({ q }, 'replace'),
      setSort: (sort) => update({ sort }),
      setPage: (page) => update({ page }),
      setPageSize: (pageSize) => update({ pageSize }),
      setFilter: (name, value) => update({ [name]: value }),
      reset: () => {
        if (!prefix) {
          router.push(pathname, { scroll: false });
          return;
        }
        // Only this list's parameters: another list on the page keeps its view.
        const next = new URLSearchParams(params.toString());
        for (const key of [...next.keys()]) if (key.startsWith(prefix)) next.delete(key);
        const query = next.toString();
        router.push(query ? `${pathname}?${query}` : pathname, { scroll: false });
      },
    }),
    [state, update, router, pathname, params, prefix, defaults.sort, defaultPageSize],
  );
}

/**
 * The same view state kept in the component, for a list with nothing to share by link: a modal's rows, or the
 * answer of a probe that exists only on this screen.
 */
export function useLocalListState<Filter extends string = never>(defaults: ListDefaults<Filter>): ListStateApi<Filter> {
  const defaultPageSize = defaults.pageSize ?? 25;
  const initial: ListState<Filter> = {
    q: '',
    sort: defaults.sort,
    page: 1,
    pageSize: defaultPageSize,
    filters: {} as Record<Filter, string | undefined>,
  };
  const [state, setState] = useState<ListState<Filter>>(initial);
  return useMemo(
    () => ({
      state,
      defaults: { sort: defaults.sort, pageSize: defaultPageSize },
      setQ: (q) => setState((current) => ({ ...current, q, page: 1 })),
      setSort: (sort) => setState((current) => ({ ...current, sort, page: 1 })),
      setPage: (page) => setState((current) => ({ ...current, page })),
      setPageSize: (pageSize) => setState((current) => ({ ...current, pageSize, page: 1 })),
      setFilter: (name, value) =>
        setState((current) => ({ ...current, filters: { ...current.filters, [name]: value }, page: 1 })),
      reset: () => setState({ ...initial }),
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `initial` is rebuilt each render from the same defaults
    [state, defaults.sort, defaultPageSize],
  );
}

/** The list input a procedure takes (`q` left out when empty). */
export function listInput<Filter extends string>(state: ListState<Filter>) {
  return {
    ...(state.q ? { q: state.q } : {}),
    sort: state.sort,
    page: state.page,
    pageSize: state.pageSize,
  };
}

/** For the few lists the server hands over whole (the manifest): the same q/sort/page, applied here. */
export function pageLocally<Row>(
  rows: readonly Row[],
  state: ListState<string>,
  options: { text: (row: Row) => string; sortValue: (row: Row, field: string) => string | number },
): { items: Row[]; total: number } {
  const needle = state.q.toLowerCase();
  const descending = state.sort.startsWith('-');
  const field = descending ? state.sort.slice(1) : state.sort;
  const matching = rows.filter((row) => !needle || options.text(row).toLowerCase().includes(needle));
  const sorted = [...matching].sort((a, b) => {
    const left = options.sortValue(a, field);
    const right = options.sortValue(b, field);
    const order =
      typeof left === 'number' && typeof right === 'number' ? left - right : String(left).localeCompare(String(right));
    return descending ? -order : order;
  });
  const start = (state.page - 1) * state.pageSize;
  return { items: sorted.slice(start, start + state.pageSize), total: matching.length };
}
