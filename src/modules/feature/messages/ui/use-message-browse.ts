'use client';
// The message browser's reading side: the queue from the route, node, selector, page and "show in clear" from the
// URL, the browse of one page (live on the `queues` topic, the last page kept while the next one loads) and the rows
// and total the table shows. The screen only lays them out.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'next/navigation';
import { useMemo } from 'react';
import { decodeSegment } from '@/base/path-segment.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { useLive } from '@/ui/stream/live-query.ts';
import { useListState } from '@/ui/table/list-state.ts';
import { pageRows, pageTotal, searchText } from './message-page.ts';

const FILTERS = ['selector'] as const;

export function useMessageBrowse() {
  const params = useParams<{ clusterId: string; queueName: string }>();
  const { clusterId } = params;
  const queueName = decodeSegment(params.queueName);
  const trpc = useTRPC();
  const search = useSearchParams();
  const list = useListState<(typeof FILTERS)[number]>({ sort: 'position', pageSize: 25, filters: FILTERS });
  const live = useLive(['queues']);
  const nodeId = search.get('node') ?? undefined;
  const clear = search.get('clear') === 'true';
  const selector = list.state.filters.selector ?? '';
  const { page, pageSize } = list.state;

  const cluster = useQuery(trpc.clusters.get.queryOptions({ clusterId }));
  const queue = useQuery({ ...trpc.queues.get.queryOptions({ clusterId, queueName }), ...live });
  const browse = useQuery({
    ...trpc.messages.browse.queryOptions({
      clusterId,
      queue: queueName,
      page,
      pageSize,
      ...(nodeId ? { nodeId } : {}),
      ...(selector ? { filter: selector } : {}),
      ...(clear ? { clear: 'true' as const } : {}),
    }),
    ...live,
    placeholderData: keepPreviousData,
  });

  const answer = browse.data;
  const offset = (page - 1) * pageSize;
  const rows = useMemo(() => pageRows(answer?.messages ?? [], offset), [answer, offset]);
  const needle = list.state.q.trim().toLowerCase();
  const shown = needle ? rows.filter((row) => searchText(row).includes(needle)) : rows;
  const cell = queue.data?.cells.find((candidate) => candidate.nodeId === (nodeId ?? answer?.nodeId));
  const total = answer
    ? pageTotal({
        hasMore: answer.hasMore,
        read: offset + rows.length,
        matched: needle ? shown.length : undefined,
        nodeCount: selector ? undefined : cell?.messageCount,
      })
    : undefined;

  return { clusterId, queueName, list, nodeId, clear, selector, cluster, queue, browse, answer, shown, total };
}
