'use client';
// The palette's two server searches: clusters through the clusters screen's own tRPC list, queues through the
// fleet-wide REST search. A section the server does not offer this viewer (404: not built or switched off; 403: no
// permission) is absent rather than an error; any other failure is said in one line under its heading.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchJson, problemOf } from '../data/problem.ts';
import { useTRPC, type RouterOutputs } from '../data/trpc.ts';

const PAGE_SIZE = 8;

export type ClusterHit = RouterOutputs['clusters']['list']['items'][number];

/** One row of `GET /api/v1/queues?q=`. */
export interface QueueHit {
  readonly clusterId: string;
  readonly clusterName: string;
  readonly address: string;
  readonly queueName: string;
  readonly routingType: string;
  readonly messageCount: number;
}

interface QueueSearchAnswer {
  readonly items: readonly QueueHit[];
  readonly total: number;
}

type SectionResult<Hit> =
  | { readonly kind: 'absent' }
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'hits'; readonly hits: readonly Hit[]; readonly total: number };

export interface SectionSearch<Hit> {
  readonly result: SectionResult<Hit>;
  /** A request for the current text is under way (or was not answered yet). */
  readonly pending: boolean;
}

const NOT_OFFERED = new Set([403, 404]);

function sectionOf<Hit>(
  query: { data?: { items: readonly Hit[]; total: number }; error: unknown; isPlaceholderData: boolean },
  what: string,
): SectionResult<Hit> {
  if (query.error) {
    const problem = problemOf(query.error);
    if (problem.status !== undefined && NOT_OFFERED.has(problem.status)) return { kind: 'absent' };
    return { kind: 'failed', message: `${what} could not be searched: ${problem.detail ?? problem.title}` };
  }
  return query.data ? { kind: 'hits', hits: query.data.items, total: query.data.total } : { kind: 'absent' };
}

/** Clusters whose name (or environment, description) holds the text; the first page by name when it is empty. */
export function useClusterSearch(text: string): SectionSearch<ClusterHit> {
  const trpc = useTRPC();
  const input = { ...(text ? { q: text } : {}), sort: 'name' as const, page: 1, pageSize: PAGE_SIZE };
  const query = useQuery({ ...trpc.clusters.list.queryOptions(input), placeholderData: keepPreviousData });
  return { result: sectionOf(query, 'Clusters'), pending: query.isPending || query.isPlaceholderData };
}

/** Queues of every cluster whose name holds the text; asked only for a non-empty text the viewer can open. */
export function useQueueSearch(text: string, canOpen: boolean): SectionSearch<QueueHit> {
  const enabled = canOpen && text !== '';
  const query = useQuery({
    queryKey: ['rest', 'queue-search', text],
    queryFn: () =>
      fetchJson<QueueSearchAnswer>(`/api/v1/queues?${new URLSearchParams({ q: text, pageSize: String(PAGE_SIZE) })}`),
    enabled,
    placeholderData: keepPreviousData,
  });
  if (!enabled) return { result: { kind: 'absent' }, pending: false };
  return { result: sectionOf(query, 'Queues'), pending: query.isPending || query.isPlaceholderData };
}
