'use client';
// One connection: where it comes from, its sessions, and the consumers and producers on it, live on the
// connections, sessions and consumers topics. Close connection from the header or the row menu's `?operate=close`.
import { Code, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'next/navigation';
import { useMemo } from 'react';
import { decodeSegment } from '@/base/path-segment.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { pageLocally, useListState, type ListState } from '@/ui/table/list-state.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { LiveAnswer } from './live-answer.tsx';
import { CloseConnectionButton } from './resource-actions.tsx';
import { consumerColumns, producerColumns, sessionColumns } from './resource-columns.tsx';
import { resourceListPath } from './resource-paths.ts';
import { useStreamLive } from './resource-screen.tsx';
import { useWritesOff } from '@/modules/platform/clusters/ui.ts';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

export function ConnectionScreen() {
  const { clusterId, connectionId } = useParams<{ clusterId: string; connectionId: string }>();
  const writesOff = useWritesOff(clusterId);
  const id = decodeSegment(connectionId);
  const nodeId = useSearchParams().get('node') ?? undefined;
  const trpc = useTRPC();
  const cluster = useQuery(trpc.clusters.get.queryOptions({ clusterId }));
  const query = useQuery({
    ...trpc.resources.connection.queryOptions({ clusterId, connectionId: id, ...(nodeId ? { nodeId } : {}) }),
    ...useLive(['connections', 'sessions', 'consumers']),
  });
  const live = useStreamLive();
  const sessionsList = useListState({ sort: '-createdAt', prefix: 'sessions', pageSize: 10 });
  const consumersList = useListState({ sort: 'queue', prefix: 'consumers', pageSize: 10 });
  const producersList = useListState({ sort: 'address', prefix: 'producers', pageSize: 10 });
  const columns = useMemo(
    () => ({
      sessions: sessionColumns(clusterId).filter((column) => column.id !== 'connection' && column.id !== 'node'),
      consumers: consumerColumns(clusterId, { withQueue: true }).filter(
        (column) => column.id !== 'connection' && column.id !== 'node',
      ),
      producers: producerColumns(clusterId).filter((column) => column.id !== 'connection' && column.id !== 'node'),
    }),
    [clusterId],
  );
  const data = query.data;
  // The connection's rows arrive whole: each table searches, sorts and pages them here, its state in the URL.
  const paged = <Row extends object>(rows: readonly Row[] | undefined, list: { state: ListState<never> }) => ({
    data: rows
      ? pageLocally(rows, list.state, {
          text: (row) => Object.values(row).join(' '),
          sortValue: (row, field) => {
            const value: unknown = (row as Record<string, unknown>)[field];
            return typeof value === 'number' ? value : typeof value === 'string' ? value : '';
          },
        })
      : undefined,
    error: query.error,
    isPending: query.isPending,
    isFetching: query.isFetching,
    refetch: () => void query.refetch(),
  });
  if (query.isError && !data) return <ProblemView error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <>
      <PageHeader
        title={`Connection ${id}`}
        cluster={cluster.data?.name}
        crumbs={[
          { label: 'Clusters', href: '/clusters' },
          { label: cluster.data?.name ?? 'Cluster', href: `/clusters/${clusterId}` },
          { label: 'Connections', href: resourceListPath(clusterId, 'connections') },
        ]}
        description="A client connection with its sessions and the consumers and producers it holds."
        actions={
          <CloseConnectionButton
            clusterId={clusterId}
            connectionId={id}
            nodeId={data?.connection.nodeId ?? nodeId}
            nodeName={data?.connection.nodeName}
          />
        }
      />
      <LiveAnswer fetchedAt={data?.fetchedAt} nodes={undefined} live={live} />
      {data && (
        <Paper withBorder p="md" radius="md" mb="lg" data-testid="connection-facts">
          <SimpleGrid cols={{ base: 2, md: 4 }}>
            <Fact label="Node">{data.connection.nodeName}</Fact>
            <Fact label="Client address">
              <Code>{data.connection.remoteAddress}</Code>
            </Fact>
            <Fact label="Protocol">{data.connection.protocol}</Fact>
            <Fact label="Client id">{data.connection.clientId ?? '—'}</Fact>
            <Fact label="Users">{data.connection.users.join(', ') || '—'}</Fact>
            <Fact label="Sessions">{data.connection.sessionCount}</Fact>
            <Fact label="Created">
              <TimeAgo iso={data.connection.createdAt} />
            </Fact>
            <Fact label="Broker address">
              <Group gap={4}>
                <Code>{data.connection.localAddress}</Code>
              </Group>
            </Fact>
          </SimpleGrid>
        </Paper>
      )}
      <PageSection title="Consumers">
        <DataTable
          tableId="connection-consumers"
          label="Consumers on this connection"
          columns={columns.consumers}
          rowKey={(row) => row.key}
          list={consumersList}
          query={paged(data?.consumers, consumersList)}
          empty={{ title: 'No consumers on this connection' }}
          rowMenu={{ kind: 'consumer', clusterId, writesOff }}
        />
      </PageSection>
      <PageSection title="Producers">
        <DataTable
          tableId="connection-producers"
          label="Producers on this connection"
          columns={columns.producers}
          rowKey={(row) => row.key}
          list={producersList}
          query={paged(data?.producers, producersList)}
          empty={{ title: 'No producers on this connection' }}
          rowMenu={{ kind: 'producer', clusterId, writesOff }}
        />
      </PageSection>
      <PageSection title="Sessions">
        <DataTable
          tableId="connection-sessions"
          label="Sessions of this connection"
          columns={columns.sessions}
          rowKey={(row) => row.key}
          list={sessionsList}
          query={paged(data?.sessions, sessionsList)}
          empty={{ title: 'No sessions' }}
          rowMenu={{ kind: 'session', clusterId, writesOff }}
        />
      </PageSection>
    </>
  );
}
