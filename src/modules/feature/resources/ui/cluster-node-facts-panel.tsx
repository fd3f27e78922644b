'use client';
// The resources module's `cluster.header` panel on a cluster's overview: each serving node's facts with warnings
// when paging, full addresses or the memory and disk limits are near, live on the queues topic and polled at the
// cache period, saying how old the reading is.
import { Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import type { PanelSlotProps } from '@/ui/slots/contribution-types.ts';
import { useLive } from '@/ui/stream/live-query.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { NodeFactsCard } from './node-facts-view.tsx';

/** Facts change without a notification (memory, disk): read them again this often while the screen is open. */
export const FACTS_REFRESH_MS = 15_000;

export function ClusterNodeFactsPanel({ clusterId }: PanelSlotProps['cluster.header']) {
  const trpc = useTRPC();
  const live = useLive(['queues']);
  const facts = useQuery({
    ...trpc.resources.facts.queryOptions({ clusterId }),
    meta: live.meta,
    refetchInterval: live.refetchInterval === false ? FACTS_REFRESH_MS : live.refetchInterval,
  });
  if (facts.isError) return <ProblemView error={facts.error} onRetry={() => void facts.refetch()} />;
  return (
    <Stack gap="xs" aria-label="Node facts" data-testid="cluster-node-facts">
      <Group justify="space-between">
        <Text fw={600}>Nodes</Text>
        {facts.data && (
          <Text size="xs" c="dimmed">
            read <TimeAgo iso={facts.data.fetchedAt} inline />
          </Text>
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        {(facts.data?.nodes ?? []).map((node) => (
          <NodeFactsCard key={node.nodeId} clusterId={clusterId} node={node} linked />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
