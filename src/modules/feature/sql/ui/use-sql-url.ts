'use client';
// The query the console shows is the one in the URL (`sql`, `source`): Run and the source switch push a new entry, so
// back steps through the queries run and a link reopens one. The rows table keeps its own view under `rows.`; a new
// query starts it afresh.
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback } from 'react';
import { sourceOf, type SqlSource } from './sql-paths.ts';

export const ROWS_PREFIX = 'rows';

export function useSqlUrl(): {
  readonly sql: string;
  readonly source: SqlSource;
  /** What the tail follows: rows entering the index (captured and sampled), or the brokers read again and again. */
  readonly tailOf: 'index' | 'live';
  readonly show: (query: { sql: string; source: SqlSource; tailOf: 'index' | 'live' }) => void;
} {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const show = useCallback(
    (query: { sql: string; source: SqlSource; tailOf: 'index' | 'live' }) => {
      const next = new URLSearchParams(params.toString());
      for (const key of [...next.keys()]) if (key.startsWith(`${ROWS_PREFIX}.`)) next.delete(key);
      next.set('sql', query.sql);
      if (query.source === 'index') next.delete('source');
      else next.set('source', query.source);
      if (query.source === 'tail' && query.tailOf === 'live') next.set('tail', 'live');
      else next.delete('tail');
      router.push(`${pathname}?${next.toString()}`, { scroll: false });
    },
    [params, pathname, router],
  );
  return {
    sql: params.get('sql') ?? '',
    source: sourceOf(params.get('source')),
    tailOf: params.get('tail') === 'live' ? 'live' : 'index',
    show,
  };
}
