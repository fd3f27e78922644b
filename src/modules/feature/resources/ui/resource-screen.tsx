'use client';
// The frame every resource list shares: the page header with the cluster, how old the data is and which nodes
// failed, then the shared table with its filters and the kind's row menu. Each screen brings its query, built with
// listQueryInput and useLiveListOptions.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useParams } from 'next/navigation';
import type { ReactNode } from 'react';
import { useLive } from '@/ui/stream/live-query.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import type { RowMenuKind } from '@/ui/slots/slot-ids.ts';
import { useStreamStatus } from '@/ui/stream/stream-context.ts';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { listInput, type ListStateApi } from '@/ui/table/list-state.ts';
import { LiveAnswer, type NodeOutcomeView } from './live-answer.tsx';
import { activeFilters, ResourceFilters, type FilterField } from './resource-filters.tsx';
import { useWritesOff } from '@/modules/platform/clusters/ui.ts';

interface LiveQuery<Row> {
  readonly data:
    | { readonly items: readonly Row[]; readonly total: number; fetchedAt: string; nodes: readonly NodeOutcomeView[] }
    | undefined;
  readonly error: unknown;
  readonly isPending: boolean;
  readonly isFetching: boolean;
  readonly refetch: () => unknown;
}

export function useClusterId(): string {
  return useParams<{ clusterId: string }>().clusterId;
}

/** A list's query input: page, sort, search and the filters set in the URL, on the page's cluster. */
export function listQueryInput<Filter extends string>(list: ListStateApi<Filter>, clusterId: string) {
  return { ...listInput(list.state), ...activeFilters(list.state.filters), clusterId };
}

/** Refetched on the topics' signals (polling while the stream is down), the last page shown while the next loads. */
export function useLiveListOptions(topics: readonly string[]) {
  return { ...useLive(topics), placeholderData: keepPreviousData };
}

/** True while the stream is connected (signals refresh the screen); the screen polls otherwise. */
export function useStreamLive(): boolean {
  return useStreamStatus()?.status.state === 'connected';
}

export function ResourceScreen<Row extends { key: string }, Filter extends string>(props: {
  readonly title: string;
  readonly description: string;
  readonly tableId: string;
  readonly list: ListStateApi<Filter>;
  readonly query: LiveQuery<Row>;
  readonly columns: readonly Column<Row>[];
  /** The filters offered above the table (the node choice lists the nodes that answered). */
  readonly fields: readonly FilterField<Filter>[];
  readonly rowMenu: RowMenuKind;
  readonly searchPlaceholder: string;
  readonly empty: string;
  readonly rowTone?: (row: Row) => 'warning' | 'danger' | undefined;
  /** The screen's own writes in the header, e.g. Create address. */
  readonly actions?: ReactNode;
}) {
  const clusterId = useClusterId();
  const writesOff = useWritesOff(clusterId);
  const trpc = useTRPC();
  const cluster = useQuery(trpc.clusters.get.queryOptions({ clusterId }));
  const live = useStreamLive();
  return (
    <>
      <PageHeader
        title={props.title}
        cluster={cluster.data?.name}
        crumbs={[
          { label: 'Clusters', href: '/clusters' },
          { label: cluster.data?.name ?? 'Cluster', href: `/clusters/${clusterId}` },
        ]}
        description={props.description}
        actions={props.actions}
      />
      <LiveAnswer fetchedAt={props.query.data?.fetchedAt} nodes={props.query.data?.nodes} live={live} />
      <DataTable
        tableId={props.tableId}
        label={props.title}
        columns={props.columns}
        rowKey={(row) => row.key}
        list={props.list}
        query={props.query}
        searchPlaceholder={props.searchPlaceholder}
        filters={<ResourceFilters list={props.list} fields={props.fields} nodes={props.query.data?.nodes ?? []} />}
        empty={{ title: props.empty, description: 'Nothing matches on the serving nodes right now.' }}
        rowMenu={{ kind: props.rowMenu, clusterId, writesOff }}
        {...(props.rowTone ? { rowTone: props.rowTone } : {})}
      />
    </>
  );
}
