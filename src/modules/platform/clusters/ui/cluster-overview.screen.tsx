'use client';
// A cluster's overview: split-brain banner, logical nodes with primary/backup and the serving node, HA state and
// last success per node with staleness (cluster-nodes-table.tsx), the capability ledger with snippets to copy
// (capability-ledger.tsx), the topology, and the removal (remove-cluster.tsx).
import { Alert, Anchor, Badge, Button, Stack } from '@mantine/core';
import { IconAlertOctagon } from '@tabler/icons-react';
import Link from 'next/link';
import { useParams } from 'next/navigation';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { Slot } from '@/ui/slots/slot.tsx';
import { CapabilityLedger } from './capability-ledger.tsx';
import { NodesTable } from './cluster-nodes-table.tsx';
import { clusterHealth } from './cluster-health.ts';
import { HealthBadge } from './health-badge.tsx';
import { RemoveCluster } from './remove-cluster.tsx';
import { TopologyView } from './topology-view.tsx';
import { useClusterNodes } from './use-cluster-nodes.ts';

export function ClusterOverviewScreen() {
  const { clusterId } = useParams<{ clusterId: string }>();
  const { cluster, nodes } = useClusterNodes(clusterId);
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
