'use client';
// Messaging → Queues: queues live per cluster, so this screen picks the cluster (or opens the only one).
import { Anchor, Button, List, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { EmptyState } from '@/ui/parts/empty-state.tsx';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { queuesPath } from './queue-paths.ts';

export function QueuesHomeScreen() {
  const trpc = useTRPC();
  const router = useRouter();
  const clusters = useQuery(trpc.clusters.list.queryOptions({ sort: 'environment', page: 1, pageSize: 500 }));
  const items = clusters.data?.items ?? [];
  const only = items.length === 1 ? items[0] : undefined;
  useEffect(() => {
    if (only) router.replace(queuesPath(only.id));
  }, [only, router]);

  return (
    <>
      <PageHeader title="Queues" description="Queues live on a cluster's nodes; pick the cluster to see them." />
      {clusters.isError ? (
        <ProblemView error={clusters.error} onRetry={() => void clusters.refetch()} />
      ) : clusters.data && items.length === 0 ? (
        <EmptyState
          title="No clusters yet"
          action={
            <Button component={Link} href="/clusters/new">
              Register a cluster
            </Button>
          }
        >
          Register a cluster and its queues appear here after the first scrape.
        </EmptyState>
      ) : (
        <PageSection title="Clusters">
          <List spacing="xs" aria-label="Clusters">
            {items.map((cluster) => (
              <List.Item key={cluster.id}>
                <Anchor component={Link} href={queuesPath(cluster.id)}>
                  {cluster.name}
                </Anchor>
                {cluster.environment && (
                  <Text span size="sm" c="dimmed">
                    {' '}
                    · {cluster.environment.name}
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
