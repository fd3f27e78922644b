'use client';
// A cluster's overview: split-brain banner, logical nodes with primary/backup and the serving node, HA state and
// last success per node with staleness, the capability ledger with snippets to copy, and the topology.
import { Alert, Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertOctagon } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useParams, useRouter } from 'next/navigation';
import { useTRPC } from '@/ui/data/trpc.ts';
import { HoldToConfirm } from '@/ui/parts/hold-to-confirm.tsx';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { Slot } from '@/ui/slots/slot.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useListState } from '@/ui/table/list-state.ts';
import { localQuery, type LocalSource } from '@/ui/table/local-query.ts';
import { CapabilityValue } from './capability-badges.tsx';
import { clusterHealth, nodeHealth } from './cluster-health.ts';
import { ConfigSnippet } from './config-snippet.tsx';
import { HealthBadge } from './health-badge.tsx';
import { groupLogicalNodes } from './logical-nodes.ts';
import { NodeEditAction } from './node-edit-dialog.tsx';
import { TopologyView, type NodeRow } from './topology-view.tsx';

const flag = (value: boolean | null) => (value === null ? '—' : value ? 'yes' : 'no');

type NodeListRow = NodeRow & {
  readonly clusterId: string;
  readonly logicalKey: string;
  readonly isServing: boolean;
  readonly order: number;
};

const HEALTH_ORDER = { down: 0, degraded: 1, unknown: 2, healthy: 3 } as const;

const nodeColumns: readonly Column<NodeListRow>[] = [
  { id: 'logicalNode', header: 'Logical node', cell: (node) => node.logicalKey, sortField: 'logicalNode' },
  {
    id: 'broker',
    header: 'Broker',
    sortField: 'broker',
    cell: (node) => (
      <>
        <Text size="sm" fw={600}>
          {node.brokerName ?? '—'}
        </Text>
        <Text size="xs" ff="monospace" c="dimmed">
          {node.managementUrl}
        </Text>
      </>
    ),
  },
  { id: 'role', header: 'Role', cell: (node) => node.role, sortField: 'role' },
  {
    id: 'serving',
    header: 'Serving',
    width: 110,
    cell: (node) =>
      node.isServing ? (
        <Badge color="teal" size="sm">
          serving
        </Badge>
      ) : node.haPolledAt ? (
        'standby'
      ) : (
        <Text size="sm" c="dimmed">
          not polled yet
        </Text>
      ),
  },
  {
    id: 'ha',
    header: 'Active / Backup / Replica sync',
    cell: (node) => {
      const flags = `${flag(node.active)} / ${flag(node.backup)} / ${flag(node.replicaSync)}`;
      // A node whose last poll failed shows what it said before, marked as such, never as its current state.
      const stale = node.lastFailureAt !== null && (node.lastSuccessAt ?? '') < node.lastFailureAt;
      return stale ? (
        <Text size="sm" c="dimmed" title="The last poll failed: these flags are from the poll before">
          last known: {flags}
        </Text>
      ) : (
        flags
      );
    },
  },
  {
    id: 'health',
    header: 'Health',
    width: 120,
    sortField: 'health',
    cell: (node) => <HealthBadge health={nodeHealth(node)} />,
  },
  {
    id: 'lastSuccess',
    header: 'Last success',
    sortField: 'lastSuccess',
    cell: (node) => <TimeAgo iso={node.lastSuccessAt} empty="never" />,
  },
  {
    id: 'urlSource',
    header: 'URL found by',
    hiddenByDefault: true,
    cell: (node) => node.urlSource,
  },
  {
    id: 'lastError',
    header: 'Last error',
    cell: (node) => (
      <Text size="xs" c="red">
        {node.lastError ?? ''}
      </Text>
    ),
  },
  {
    id: 'actions',
    header: '',
    width: 110,
    cell: (node) => <NodeEditAction clusterId={node.clusterId} node={node} />,
  },
];

function NodesTable({
  clusterId,
  nodes,
  source,
}: {
  clusterId: string;
  nodes: readonly NodeRow[] | undefined;
  source: LocalSource;
}) {
  const list = useListState({ sort: 'logicalNode', prefix: 'nodes' });
  // Logical nodes in their order, a pair's primary first: the default sort keeps that order.
  const rows = nodes
    ? groupLogicalNodes(nodes).flatMap((group) =>
        group.members.map((node) => ({
          ...node,
          clusterId,
          logicalKey: group.key,
          isServing: group.serving?.id === node.id,
        })),
      )
    : undefined;
  const ordered = rows?.map((row, order) => ({ ...row, order }));
  const query = localQuery(
    ordered,
    list,
    {
      text: (node) => [node.brokerName, node.managementUrl, node.role, node.logicalKey, node.lastError].join(' '),
      sortValue: (node, field) =>
        field === 'broker'
          ? (node.brokerName ?? node.managementUrl)
          : field === 'role'
            ? node.role
            : field === 'health'
              ? HEALTH_ORDER[nodeHealth(node)]
              : field === 'lastSuccess'
                ? Date.parse(node.lastSuccessAt ?? '') || 0
                : node.order,
    },
    source,
  );
  return (
    <div data-testid="cluster-nodes">
      <DataTable
        tableId="cluster-nodes"
        label="Nodes"
        columns={nodeColumns}
        rowKey={(node) => node.id}
        rowAttributes={(node) => ({ 'data-role': node.role })}
        list={list}
        query={query}
        searchPlaceholder="Search brokers, URLs, errors"
        empty={{ title: 'No nodes', description: 'Rediscover the cluster to find its nodes again.' }}
        minWidth={1000}
      />
    </div>
  );
}

const CONFIRMED_BY = {
  registration: 'the registration probe',
  rediscovery: 'a rediscovery',
  subscription: "the worker's native connection",
  scrape: "the scrape's management calls",
  recheck: 'the scheduled recheck',
  command: 'a broker command’s real run',
} as const;

function CapabilityLedger({ clusterId }: { clusterId: string }) {
  const trpc = useTRPC();
  const ledger = useQuery({ ...trpc.clusters.capabilities.queryOptions({ clusterId }), ...useLive(['health']) });
  if (ledger.isError) return <ProblemView error={ledger.error} onRetry={() => void ledger.refetch()} />;
  return (
    <Stack gap="sm" data-testid="capability-ledger">
      {(ledger.data?.items ?? []).map((row) => (
        <Stack key={row.capability} gap={4} data-capability-row={row.capability}>
          <Group gap="xs">
            <Text size="sm" fw={600}>
              {row.capability}
            </Text>
            <CapabilityValue value={row.value} />
            <Text size="xs" c="dimmed" data-testid="capability-confirmed">
              confirmed <TimeAgo iso={row.checkedAt} /> by {CONFIRMED_BY[row.confirmedBy]}
            </Text>
          </Group>
          {row.detail && (
            <Text size="sm">
              {row.value === 'UNKNOWN' ? `Uncertain: ${row.detail}. Controls stay enabled.` : row.detail}
            </Text>
          )}
          {row.snippet && <ConfigSnippet snippet={row.snippet} />}
        </Stack>
      ))}
    </Stack>
  );
}

function RemoveCluster({ clusterId }: { clusterId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.clusters.remove.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.clusters.pathFilter());
        router.push('/clusters');
      },
    }),
  );
  return (
    <Stack gap={4}>
      <HoldToConfirm
        action="Remove"
        count={1}
        noun={['cluster', 'clusters']}
        disabled={remove.isPending}
        onConfirm={() => remove.mutate({ clusterId })}
      />
      {remove.isError && <ProblemView error={remove.error} />}
    </Stack>
  );
}

export function ClusterOverviewScreen() {
  const { clusterId } = useParams<{ clusterId: string }>();
  const trpc = useTRPC();
  const live = useLive(['topology', 'health']);
  const cluster = useQuery({ ...trpc.clusters.get.queryOptions({ clusterId }), ...live });
  const nodes = useQuery({ ...trpc.clusters.nodes.queryOptions({ clusterId }), ...live });
  if (cluster.isError) return <ProblemView error={cluster.error} onRetry={() => void cluster.refetch()} />;
  const data = cluster.data;
  return (
    <>
      <PageHeader
        title={data?.name ?? 'Cluster'}
        cluster={data?.name}
        crumbs={[{ label: 'Clusters', href: '/clusters' }]}
        description={data?.description || undefined}
        actions={
          <>
            {data?.environment && <Badge variant="outline">{data.environment.name}</Badge>}
            {data && (
              <span data-testid="cluster-health">
                <HealthBadge health={clusterHealth(data)} />
              </span>
            )}
            <Button component={Link} href={`/clusters/${clusterId}/topology`} variant="default" size="xs">
              Topology
            </Button>
          </>
        }
      />
      <Stack gap="lg">
        <Slot id="cluster.header" props={{ clusterId }} />
        {data?.splitBrain && (
          <Alert color="red" variant="filled" icon={<IconAlertOctagon />} title="Split brain" data-testid="split-brain">
            Two nodes of one primary/backup pair are active at once. Clients may be writing to both; stop one of them
            and restore replication before anything else.
          </Alert>
        )}
        <PageSection
          title="Nodes"
          description="Logical nodes pair a primary with its backup (same NodeID). The serving node is the one whose last poll read Active, never the configuration."
        >
          <NodesTable
            clusterId={clusterId}
            nodes={nodes.data?.items}
            source={{
              isPending: nodes.isPending,
              isFetching: nodes.isFetching,
              error: nodes.error,
              refetch: () => void nodes.refetch(),
            }}
          />
        </PageSection>
        <PageSection
          title="Capabilities"
          description="What Flotilla may do on this cluster, and the broker configuration that would change a no."
        >
          <CapabilityLedger clusterId={clusterId} />
        </PageSection>
        <PageSection title="Topology">
          <TopologyView clusterId={clusterId} nodes={nodes.data?.items ?? []} />
          <Anchor component={Link} href={`/clusters/${clusterId}/topology`} size="sm">
            Open the topology view
          </Anchor>
        </PageSection>
        {data && (
          <PageSection
            title="Remove"
            description={`Removes ${data.name}, its nodes and its ledger from Flotilla; the brokers are not touched.`}
          >
            <RemoveCluster clusterId={clusterId} />
          </PageSection>
        )}
      </Stack>
    </>
  );
}

export function ClusterTopologyScreen() {
  const { clusterId } = useParams<{ clusterId: string }>();
  const trpc = useTRPC();
  const live = useLive(['topology', 'health']);
  const cluster = useQuery({ ...trpc.clusters.get.queryOptions({ clusterId }), ...live });
  const nodes = useQuery({ ...trpc.clusters.nodes.queryOptions({ clusterId }), ...live });
  const error = cluster.error ?? nodes.error;
  if (error) return <ProblemView error={error} />;
  return (
    <>
      <PageHeader
        title={`${cluster.data?.name ?? 'Cluster'} topology`}
        cluster={cluster.data?.name}
        crumbs={[
          { label: 'Clusters', href: '/clusters' },
          { label: cluster.data?.name ?? 'Cluster', href: `/clusters/${clusterId}` },
        ]}
        description="Each logical node with its primary and backup; the serving node follows the polled Active state."
        actions={
          <Button component={Link} href={`/clusters/${clusterId}`} variant="default" size="xs">
            Overview
          </Button>
        }
      />
      <TopologyView clusterId={clusterId} nodes={nodes.data?.items ?? []} />
    </>
  );
}
