'use client';
// A cluster's topology on a page of its own: each logical node with its primary and backup, the serving node
// following the polled Active state.
import { Button } from '@mantine/core';
import Link from 'next/link';
import { useParams } from 'next/navigation';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { TopologyView } from './topology-view.tsx';
import { useClusterNodes } from './use-cluster-nodes.ts';

export function ClusterTopologyScreen() {
  const { clusterId } = useParams<{ clusterId: string }>();
  const { cluster, nodes } = useClusterNodes(clusterId);
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
