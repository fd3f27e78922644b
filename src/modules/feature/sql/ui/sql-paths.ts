// Where the SQL console's screens live. The query and its source are in the URL, so a query is a link: opening it
// runs it again (the tail connects again).

export type SqlSource = 'index' | 'live' | 'tail';

const SQL_SOURCES: readonly SqlSource[] = ['index', 'live', 'tail'];

/** The source a link names; anything else reads the index, the one that never asks the brokers. */
export function sourceOf(text: string | null | undefined): SqlSource {
  return SQL_SOURCES.find((source) => source === text) ?? 'index';
}

export function sqlConsolePath(clusterId: string, query?: { sql?: string; source?: SqlSource }): string {
  const params = new URLSearchParams();
  if (query?.sql) params.set('sql', query.sql);
  if (query?.source && query.source !== 'index') params.set('source', query.source);
  const search = params.toString();
  return `/clusters/${encodeURIComponent(clusterId)}/sql${search ? `?${search}` : ''}`;
}

export function subscriptionsPath(clusterId: string): string {
  return `/clusters/${encodeURIComponent(clusterId)}/sql/subscriptions`;
}

/** The tail's event stream; the browser's EventSource sends Last-Event-ID itself when it reconnects. */
export function tailUrl(clusterId: string, sql: string, source: 'index' | 'live'): string {
  const params = new URLSearchParams({ sql, source });
  return `/api/v1/clusters/${encodeURIComponent(clusterId)}/sql/tail?${params.toString()}`;
}
