'use client';
// Messaging → SQL console: the index, the taps and the brokers are a cluster's, so this screen picks the cluster (or
// opens the only one). A query in the link (`?sql=…&source=…`) goes along to the cluster's console.
import { Button, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { useEffect } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { EmptyState } from '@/ui/parts/empty-state.tsx';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { ClusterPicker } from '@/modules/platform/clusters/ui.ts';
import { sourceOf, sqlConsolePath } from './sql-paths.ts';

export function SqlHomeScreen() {
  const trpc = useTRPC();
  const router = useRouter();
  const params = useSearchParams();
  const clusters = useQuery(trpc.clusters.list.queryOptions({ sort: 'name', page: 1, pageSize: 500 }));
  const items = clusters.data?.items ?? [];
  const only = items.length === 1 ? items[0] : undefined;
  const consoleOf = (clusterId: string) =>
    sqlConsolePath(clusterId, { sql: params.get('sql') ?? undefined, source: sourceOf(params.get('source')) });
  const onlyPath = only ? consoleOf(only.id) : undefined;
  useEffect(() => {
    if (onlyPath) router.replace(onlyPath);
  }, [onlyPath, router]);

  return (
    <>
      <PageHeader
        title="SQL console"
        description="The message index, the capture taps and the brokers read live are a cluster's; pick the cluster to query."
      />
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
          Register a cluster to query its brokers and its message index.
        </EmptyState>
      ) : (
        <PageSection title="Cluster">
          <Stack gap="xs" maw={420}>
            <ClusterPicker value={null} onChange={(picked) => picked && router.push(consoleOf(picked))} />
            <Text size="sm" c="dimmed">
              The console opens on the cluster picked; its picker switches clusters and keeps the query.
            </Text>
          </Stack>
        </PageSection>
      )}
    </>
  );
}
