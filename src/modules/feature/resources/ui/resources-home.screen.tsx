'use client';
// Resources → Addresses, Consumers, Producers, Sessions or Connections: they live per cluster, so this screen picks
// the cluster (or opens the only one).
import { Anchor, List, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { EmptyState } from '@/ui/parts/empty-state.tsx';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { resourceListPath, type ResourceListKind } from './resource-paths.ts';

const TITLES: Record<ResourceListKind, string> = {
  addresses: 'Addresses',
  consumers: 'Consumers',
  producers: 'Producers',
  sessions: 'Sessions',
  connections: 'Connections',
};

export function ResourcesHomeScreen({ kind }: { kind: ResourceListKind }) {
  const trpc = useTRPC();
  const router = useRouter();
  const clusters = useQuery(trpc.clusters.list.queryOptions({ sort: 'environment', page: 1, pageSize: 500 }));
  const items = clusters.data?.items ?? [];
  const only = items.length === 1 ? items[0] : undefined;
  useEffect(() => {
    if (only) router.replace(resourceListPath(only.id, kind));
  }, [only, router, kind]);
  return (
    <>
      <PageHeader
        title={TITLES[kind]}
        description={`${TITLES[kind]} are read live from each cluster's serving nodes; pick the cluster.`}
      />
      {clusters.isError ? (
        <ProblemView error={clusters.error} onRetry={() => void clusters.refetch()} />
      ) : clusters.data && items.length === 0 ? (
        <EmptyState title="No clusters yet">Register a cluster to see its {kind}.</EmptyState>
      ) : (
        <PageSection title="Clusters">
          <List spacing="xs" aria-label="Clusters">
            {items.map((cluster) => (
              <List.Item key={cluster.id}>
                <Anchor component={Link} href={resourceListPath(cluster.id, kind)}>
                  {cluster.name}
                </Anchor>
                {cluster.environment && (
                  <Text span size="sm" c="dimmed">
                    {' '}
                    ({cluster.environment.name})
                  </Text>
                )}
              </List.Item>
            ))}
          </List>
        </PageSection>
      )}
    </>
  );
}
