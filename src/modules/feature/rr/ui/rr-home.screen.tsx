'use client';
// Messaging → Request-reply: flows are a cluster's, so this screen picks the cluster (or opens the only one).
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
import { rrFlowsPath } from './rr-paths.ts';

export function RrHomeScreen() {
  const trpc = useTRPC();
  const router = useRouter();
  const clusters = useQuery(trpc.clusters.list.queryOptions({ sort: 'environment', page: 1, pageSize: 500 }));
  const items = clusters.data?.items ?? [];
  const only = items.length === 1 ? items[0] : undefined;
  useEffect(() => {
    if (only) router.replace(rrFlowsPath(only.id));
  }, [only, router]);
  return (
    <>
      <PageHeader title="Request-reply" description="Request-reply flows are traced per cluster; pick the cluster." />
      {clusters.isError ? (
        <ProblemView error={clusters.error} onRetry={() => void clusters.refetch()} />
      ) : clusters.data && items.length === 0 ? (
        <EmptyState title="No clusters yet">
          Register a cluster and its request-reply traffic can be traced here.
        </EmptyState>
      ) : (
        <PageSection title="Clusters">
          <List spacing="xs" aria-label="Clusters">
            {items.map((cluster) => (
              <List.Item key={cluster.id}>
                <Anchor component={Link} href={rrFlowsPath(cluster.id)}>
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
