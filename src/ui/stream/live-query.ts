// How a screen makes a query live: `useQuery({ ...trpc.jobs.list.queryOptions(input), ...useLive(['health']) })`.
// The meta names the topics whose signals invalidate it; while the stream is not connected it polls instead.
import type { Query } from '@tanstack/react-query';
import type { StreamSignal } from './stream-connection.ts';
import { useStreamStatus } from './stream-context.ts';

/** Polling period while the stream is down or still connecting. */
export const POLL_WHILE_DOWN_MS = 5_000;

export interface LiveMeta {
  readonly clusterId: string;
  readonly topics: readonly string[];
  [key: string]: unknown;
}

export function useLive(topics: readonly string[]): { meta: LiveMeta; refetchInterval: number | false } {
  const stream = useStreamStatus();
  const connected = stream?.status.state === 'connected';
  const meta: LiveMeta = { clusterId: stream?.clusterId ?? '', topics };
  return { meta, refetchInterval: connected ? false : POLL_WHILE_DOWN_MS };
}

/** True when a signal concerns a query: same cluster scope, and one of the query's topics. */
export function isInvalidatedBy(query: Pick<Query, 'meta'>, signal: StreamSignal): boolean {
  const topics: unknown = query.meta?.topics;
  return query.meta?.clusterId === signal.clusterId && Array.isArray(topics) && topics.includes(signal.topic);
}
