'use client';
// The home of a screen that lives per cluster (events, request-reply flows, a resource list): it lists the clusters to
// pick from, or opens the only one, and says so when none is registered yet.
import { Anchor, List, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, type ReactNode } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { EmptyState } from '@/ui/parts/empty-state.tsx';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';

export function ClusterChoice({
  title,
  description,
  noClusters,
  pathOf,
}: {
  title: string;
  description: string;
  /** What the empty state says when no cluster is registered. */
  noClusters: ReactNode;
  /** The screen's path for one cluster. */
  pathOf: (clusterId: string) => string;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const clusters = useQuery(trpc.clusters.list.queryOptions({ sort: 'environment', page: 1, pageSize: 500 }));
  const items = clusters.data?.items ?? [];
  const onlyPath = items.length === 1 && items[0] ? pathOf(items[0].id) : undefined;
  useEffect(() => {
    if (onlyPath) router.replace(onlyPath);
  }, [onlyPath, router]);
  return (
    <>
      <PageHeader title={title} description={description} />
      {clusters.isError ? (
        <ProblemView error={clusters.error} onRetry={() => void clusters.refetch()} />
      ) : clusters.data && items.length === 0 ? (
        <EmptyState title="No clusters yet">{noClusters}</EmptyState>
      ) : (
        <PageSection title="Clusters">
          <List spacing="xs" aria-label="Clusters">
            {items.map((cluster) => (
              <List.Item key={cluster.id}>
                <Anchor component={Link} href={pathOf(cluster.id)}>
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
