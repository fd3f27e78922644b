'use client';
// Capture and sampling of a cluster: what feeds its message index. Each subscription with its state and last error
// as the reconciler (CAPTURE) or the sampler (SAMPLE) left them; add (dry run first) and remove. What the two cannot
// see is said permanently above the list.
import { Alert, Badge, Button, List, Text } from '@mantine/core';
import { IconDatabaseSearch, IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useParams, useRouter } from 'next/navigation';
import { useState } from 'react';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useListState } from '@/ui/table/list-state.ts';
import { localQuery } from '@/ui/table/local-query.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { ClusterPicker } from '@/modules/platform/clusters/ui.ts';
import { AddSubscriptionButton } from './add-subscription.tsx';
import { RemoveSubscriptionDialog, type RemovalTarget } from './remove-subscription.tsx';
import { sqlConsolePath, subscriptionsPath } from './sql-paths.ts';

type Subscription = RouterOutputs['sql']['subscriptions']['list']['items'][number];

/** The two limits an operator must not forget when reading the index; the server's words (with the cluster's sampling
 * interval) take their place once the list is read, so one or the other is always shown. */
const LIMITS = [
  'Capture is address-scoped: the divert copies a message once, at the address, before it is routed to queues. For an address with several queues the index holds one row and cannot tell which of them received it.',
  'Sampling browses a queue between polls: a message consumed before the next poll is never seen, so a queue draining faster than the interval is invisible to it.',
];

const STATE_COLOR: Record<string, string> = { ACTIVE: 'teal', PENDING: 'gray', FAILED: 'red' };

function columnsOf(onRemove: (row: Subscription) => void): Column<Subscription>[] {
  return [
    { id: 'address', header: 'Address', sortField: 'address', cell: (row) => row.address },
    { id: 'mode', header: 'Mode', sortField: 'mode', cell: (row) => row.mode },
    {
      id: 'queue',
      header: 'Queue',
      cell: (row) =>
        row.queue ?? (
          <Text span size="sm" c="dimmed">
            the whole address
          </Text>
        ),
    },
    {
      id: 'state',
      header: 'State',
      sortField: 'state',
      cell: (row) => (
        <Badge color={STATE_COLOR[row.state] ?? 'gray'} variant="light">
          {row.state}
        </Badge>
      ),
    },
    {
      id: 'lastError',
      header: 'Last error',
      cell: (row) =>
        row.lastError ? (
          <Text size="sm" c="red" style={{ wordBreak: 'break-word' }}>
            {row.lastError}
          </Text>
        ) : (
          <Text span size="sm" c="dimmed">
            none
          </Text>
        ),
    },
    { id: 'since', header: 'State since', cell: (row) => <TimeAgo iso={row.stateChangedAt} /> },
    {
      id: 'createdAt',
      header: 'Added',
      sortField: 'createdAt',
      hiddenByDefault: true,
      cell: (row) => <TimeAgo iso={row.createdAt} />,
    },
    {
      id: 'remove',
      header: '',
      cell: (row) => (
        <Button size="compact-xs" variant="subtle" color="red" onClick={() => onRemove(row)}>
          Remove…
        </Button>
      ),
    },
  ];
}

const text = (row: Subscription) => [row.address, row.mode, row.queue ?? '', row.state, row.lastError ?? ''].join(' ');
const sortValue = (row: Subscription, field: string): string =>
  field === 'mode' ? row.mode : field === 'state' ? row.state : field === 'createdAt' ? row.createdAt : row.address;

export function SqlSubscriptionsScreen() {
  const { clusterId } = useParams<{ clusterId: string }>();
  const router = useRouter();
  const trpc = useTRPC();
  const list = useListState({ sort: 'address' });
  const [removing, setRemoving] = useState<RemovalTarget | null>(null);
  const cluster = useQuery(trpc.clusters.get.queryOptions({ clusterId }));
  const subscriptions = useQuery({
    ...trpc.sql.subscriptions.list.queryOptions({ clusterId }),
    // The reconciler's passes change states: read again while the screen is open.
    refetchInterval: 10_000,
  });
  const limits = subscriptions.data?.notices.length ? subscriptions.data.notices : LIMITS;
  const query = localQuery(subscriptions.data?.items, list, { text, sortValue }, subscriptions);
  if (cluster.isError) return <ProblemView error={cluster.error} onRetry={() => void cluster.refetch()} />;
  const clusterName = cluster.data?.name ?? 'Cluster';
  return (
    <>
      <PageHeader
        title="Capture and sampling"
        cluster={cluster.data?.name}
        crumbs={[
          { label: 'Clusters', href: '/clusters' },
          { label: clusterName, href: `/clusters/${clusterId}` },
          { label: 'SQL console', href: sqlConsolePath(clusterId) },
        ]}
        description="What feeds the message index of this cluster: capture taps on addresses and sampled queues."
        actions={
          <>
            <ClusterPicker
              value={clusterId}
              onChange={(picked) => picked && picked !== clusterId && router.push(subscriptionsPath(picked))}
              w={240}
            />
            <Button
              component={Link}
              href={sqlConsolePath(clusterId)}
              variant="default"
              leftSection={<IconDatabaseSearch size={16} />}
            >
              SQL console
            </Button>
            <AddSubscriptionButton clusterId={clusterId} />
          </>
        }
      />
      <Alert
        color="blue"
        icon={<IconInfoCircle size={18} />}
        title="What capture and sampling cannot see"
        mb="sm"
        data-testid="capture-limits"
      >
        <List size="sm" spacing={4}>
          {limits.map((limit) => (
            <List.Item key={limit}>{limit}</List.Item>
          ))}
        </List>
      </Alert>
      <DataTable
        tableId="sql-subscriptions"
        label="Subscriptions"
        columns={columnsOf(setRemoving)}
        rowKey={(row) => row.id}
        list={list}
        query={query}
        searchPlaceholder="Search address, queue or error"
        rowTone={(row) => (row.state === 'FAILED' ? 'danger' : undefined)}
        empty={{
          title: 'Nothing feeds the index yet',
          description: 'Add a capture on an address, or sample one of its queues.',
        }}
      />
      {removing && (
        <RemoveSubscriptionDialog clusterId={clusterId} target={removing} onClose={() => setRemoving(null)} />
      )}
    </>
  );
}
