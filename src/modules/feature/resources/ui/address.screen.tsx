'use client';
// One address on each serving node: routing types, memory against max-size and paging, the queues bound to it,
// and the address settings the broker applies to it (its match hierarchy resolved). Delete address (with force, its
// queues too) from the header or the row menu's `?operate=delete`.
import { Badge, Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'next/navigation';
import { decodeSegment } from '@/base/path-segment.ts';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { EntityLink } from '@/ui/slots/entity-link.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { pageLocally, useListState } from '@/ui/table/list-state.ts';
import { LiveAnswer } from './live-answer.tsx';
import { DeleteAddressButton } from './resource-actions.tsx';
import { resourceListPath } from './resource-paths.ts';
import { useStreamLive } from './resource-screen.tsx';
import { useWritesOff } from '@/modules/platform/clusters/ui.ts';

type AddressOnNode = RouterOutputs['resources']['address']['nodes'][number];
type Binding = AddressOnNode['bindings'][number] & { key: string };

function Bindings({ clusterId, node }: { clusterId: string; node: AddressOnNode }) {
  const writesOff = useWritesOff(clusterId);
  const list = useListState({ sort: 'queue', prefix: `bindings-${node.nodeId}`, pageSize: 10 });
  const rows = node.bindings.map((binding) => ({ ...binding, key: binding.queue }));
  const columns: Column<Binding>[] = [
    {
      id: 'queue',
      header: 'Queue',
      sortField: 'queue',
      cell: (row) => (
        <EntityLink kind="queue" target={{ clusterId, key: row.queue, row }}>
          {row.queue}
        </EntityLink>
      ),
    },
    { id: 'routingType', header: 'Routing', cell: (row) => row.routingType },
    { id: 'filter', header: 'Filter', cell: (row) => row.filter ?? '—' },
    {
      id: 'messageCount',
      header: 'Messages',
      sortField: 'messageCount',
      align: 'right',
      cell: (row) => row.messageCount.toLocaleString('en'),
    },
    { id: 'consumerCount', header: 'Consumers', align: 'right', cell: (row) => row.consumerCount },
    { id: 'durable', header: 'Durable', cell: (row) => (row.durable ? 'yes' : 'no') },
  ];
  const page = pageLocally(rows, list.state, {
    text: (row) => row.queue,
    sortValue: (row, field) => (field === 'messageCount' ? row.messageCount : row.queue),
  });
  return (
    <DataTable
      tableId="address-bindings"
      label={`Queues bound on ${node.nodeName}`}
      columns={columns}
      rowKey={(row) => row.key}
      list={list}
      query={{ data: page, error: null, isPending: false, isFetching: false, refetch: () => undefined }}
      empty={{ title: 'No queue is bound to this address here' }}
      rowMenu={{ kind: 'queue', clusterId, writesOff }}
    />
  );
}

export function AddressScreen() {
  const { clusterId, address } = useParams<{ clusterId: string; address: string }>();
  const name = decodeSegment(address);
  const trpc = useTRPC();
  const cluster = useQuery(trpc.clusters.get.queryOptions({ clusterId }));
  const query = useQuery({
    ...trpc.resources.address.queryOptions({ clusterId, address: name }),
    ...useLive(['queues']),
  });
  const live = useStreamLive();
  // Once read, a failed refresh keeps the page (and a Delete dialog's outcome) on screen: the address may be gone.
  if (query.isError && !query.data) return <ProblemView error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <>
      <PageHeader
        title={`Address ${name}`}
        cluster={cluster.data?.name}
        crumbs={[
          { label: 'Clusters', href: '/clusters' },
          { label: cluster.data?.name ?? 'Cluster', href: `/clusters/${clusterId}` },
          { label: 'Addresses', href: resourceListPath(clusterId, 'addresses') },
        ]}
        description="The address on each serving node: its queues and the address settings in effect there."
        actions={<DeleteAddressButton clusterId={clusterId} address={name} />}
      />
      <LiveAnswer fetchedAt={query.data?.fetchedAt} nodes={query.data?.failedNodes} live={live} />
      <Stack gap="lg">
        {(query.data?.nodes ?? []).map((node) => (
          <PageSection key={node.nodeId} title={node.nodeName} description={`Routing ${node.routingTypes.join(', ')}`}>
            <Group gap="xs" data-testid="address-state" data-node={node.nodeName}>
              <Badge variant="light">{node.queueCount} queues</Badge>
              <Badge variant="light" color="gray">
                {node.messageCount.toLocaleString('en')} messages
              </Badge>
              <Badge variant="light" color={node.limitPercent >= 100 ? 'red' : 'gray'}>
                {node.limitPercent}% of max-size
              </Badge>
              {node.paging && (
                <Badge variant="light" color="orange">
                  paging, {node.pages} pages
                </Badge>
              )}
              {node.paused && <Badge color="orange">paused</Badge>}
            </Group>
            <Bindings clusterId={clusterId} node={node} />
            <SimpleGrid cols={1}>
              <Text size="sm" fw={600}>
                Address settings in effect
              </Text>
              <Code block fz="xs" data-testid="address-settings">
                {JSON.stringify(node.settings, null, 2)}
              </Code>
            </SimpleGrid>
          </PageSection>
        ))}
      </Stack>
    </>
  );
}
