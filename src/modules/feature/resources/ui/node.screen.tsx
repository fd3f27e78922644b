'use client';
// A node's page: its facts with the limits and warnings, the addresses that page or are full, and the way to its
// consumers and connections.
import { Anchor, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useParams } from 'next/navigation';
import { useTRPC } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { FACTS_REFRESH_MS } from './cluster-node-facts-panel.tsx';
import { NodeFactsCard } from './node-facts-view.tsx';
import { PressuredAddresses } from './pressured-addresses.tsx';
import { resourceListPath } from './resource-paths.ts';

export function NodeScreen() {
  const { clusterId, nodeId } = useParams<{ clusterId: string; nodeId: string }>();
  const trpc = useTRPC();
  const cluster = useQuery(trpc.clusters.get.queryOptions({ clusterId }));
  const live = useLive(['queues']);
  const facts = useQuery({
    ...trpc.resources.facts.queryOptions({ clusterId, nodeId }),
    meta: live.meta,
    refetchInterval: live.refetchInterval === false ? FACTS_REFRESH_MS : live.refetchInterval,
  });
  const node = facts.data?.nodes[0];
  if (facts.isError) return <ProblemView error={facts.error} onRetry={() => void facts.refetch()} />;
  return (
    <>
      <PageHeader
        title={node ? `Node ${node.nodeName}` : 'Node'}
        cluster={cluster.data?.name}
        crumbs={[
          { label: 'Clusters', href: '/clusters' },
          { label: cluster.data?.name ?? 'Cluster', href: `/clusters/${clusterId}` },
        ]}
        description="What this broker holds and how close it is to its limits: memory, disk, paging and full addresses."
      />
      {facts.data && !node && (
        <Text c="dimmed">This node is not serving (a passive backup is never asked) or is no longer registered.</Text>
      )}
      {node && (
        <Stack gap="lg">
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              Read <TimeAgo iso={facts.data?.fetchedAt} inline />; read again every {FACTS_REFRESH_MS / 1000} s.
            </Text>
            <Group gap="md">
              <Anchor component={Link} href={resourceListPath(clusterId, 'consumers', { node: nodeId })} size="sm">
                Its consumers
              </Anchor>
              <Anchor component={Link} href={resourceListPath(clusterId, 'connections', { node: nodeId })} size="sm">
                Its connections
              </Anchor>
              <Anchor component={Link} href={resourceListPath(clusterId, 'addresses', { node: nodeId })} size="sm">
                Its addresses
              </Anchor>
            </Group>
          </Group>
          <NodeFactsCard clusterId={clusterId} node={node} linked={false} />
          {node.ok && (
            <PageSection
              title="Paging and full addresses"
              description="Paging addresses keep messages on disk beyond max-size; full ones block, fail or drop by their address-full policy."
            >
              <PressuredAddresses clusterId={clusterId} node={node} />
            </PageSection>
          )}
        </Stack>
      )}
    </>
  );
}
