'use client';
// A cluster's overview: split-brain banner, logical nodes with primary/backup and the serving node, HA state and
// last success per node with staleness, the capability ledger with snippets to copy, and the topology.
import { Alert, Anchor, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
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
import { CapabilityValue } from './capability-badges.tsx';
import { clusterHealth, nodeHealth } from './cluster-health.ts';
import { ConfigSnippet } from './config-snippet.tsx';
import { HealthBadge } from './health-badge.tsx';
import { groupLogicalNodes } from './logical-nodes.ts';
import { TopologyView, type NodeRow } from './topology-view.tsx';

const flag = (value: boolean | null) => (value === null ? '—' : value ? 'yes' : 'no');

function NodesTable({ nodes }: { nodes: readonly NodeRow[] }) {
  const groups = groupLogicalNodes(nodes);
  return (
    <Table.ScrollContainer minWidth={1000}>
      <Table verticalSpacing="xs" aria-label="Nodes" data-testid="cluster-nodes">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Logical node</Table.Th>
            <Table.Th>Broker</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th w={110}>Serving</Table.Th>
            <Table.Th>Active / Backup / Replica sync</Table.Th>
            <Table.Th w={120}>Health</Table.Th>
            <Table.Th>Last success</Table.Th>
            <Table.Th>Last error</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groups.flatMap((group) =>
            group.members.map((node) => (
              <Table.Tr key={node.id} data-role={node.role}>
                <Table.Td>{group.key}</Table.Td>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {node.brokerName ?? '—'}
                  </Text>
                  <Text size="xs" ff="monospace" c="dimmed">
                    {node.managementUrl}
                  </Text>
                </Table.Td>
                <Table.Td>{node.role}</Table.Td>
                <Table.Td>
                  {group.serving?.id === node.id ? (
                    <Badge color="teal" size="sm">
                      serving
                    </Badge>
                  ) : node.haPolledAt ? (
                    'standby'
                  ) : (
                    <Text size="sm" c="dimmed">
                      not polled yet
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {flag(node.active)} / {flag(node.backup)} / {flag(node.replicaSync)}
                </Table.Td>
                <Table.Td>
                  <HealthBadge health={nodeHealth(node)} />
                </Table.Td>
                <Table.Td>
                  <TimeAgo iso={node.lastSuccessAt} empty="never" />
                </Table.Td>
                <Table.Td>
                  <Text size="xs" c="red">
                    {node.lastError ?? ''}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )),
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function CapabilityLedger({ clusterId }: { clusterId: string }) {
  const trpc = useTRPC();
  const ledger = useQuery(trpc.clusters.capabilities.queryOptions({ clusterId }));
  if (ledger.isError) return <ProblemView error={ledger.error} onRetry={() => void ledger.refetch()} />;
  return (
    <Stack gap="sm" data-testid="capability-ledger">
      {(ledger.data?.items ?? []).map((row) => (
        <Stack key={row.capability} gap={4}>
          <Group gap="xs">
            <Text size="sm" fw={600}>
              {row.capability}
            </Text>
            <CapabilityValue value={row.value} />
            <Text size="xs" c="dimmed">
              checked <TimeAgo iso={row.checkedAt} />
            </Text>
          </Group>
          {row.detail && <Text size="sm">{row.detail}</Text>}
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
        description={data?.description || undefined}
        actions={
          <>
            {data?.environment && <Badge variant="outline">{data.environment.name}</Badge>}
            {data && <HealthBadge health={clusterHealth(data)} />}
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
          {nodes.isError ? <ProblemView error={nodes.error} /> : <NodesTable nodes={nodes.data?.items ?? []} />}
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
  const live = useLive(['topology']);
  const cluster = useQuery(trpc.clusters.get.queryOptions({ clusterId }));
  const nodes = useQuery({ ...trpc.clusters.nodes.queryOptions({ clusterId }), ...live });
  const error = cluster.error ?? nodes.error;
  if (error) return <ProblemView error={error} />;
  return (
    <>
      <PageHeader
        title={`${cluster.data?.name ?? 'Cluster'} topology`}
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
