'use client';
// The overview's capability ledger: what Flotilla may do on the cluster, when and by what each answer was
// confirmed, and the broker configuration that would change a no. Live on the `health` topic.
import { Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { CapabilityValue } from './capability-badges.tsx';
import { ConfigSnippet } from './config-snippet.tsx';

const CONFIRMED_BY = {
  registration: 'the registration probe',
  rediscovery: 'a rediscovery',
  subscription: "the worker's native connection",
  scrape: "the scrape's management calls",
  recheck: 'the scheduled recheck',
  command: 'a broker command’s real run',
} as const;

export function CapabilityLedger({ clusterId }: { clusterId: string }) {
  const trpc = useTRPC();
  const ledger = useQuery({ ...trpc.clusters.capabilities.queryOptions({ clusterId }), ...useLive(['health']) });
  if (ledger.isError) return <ProblemView error={ledger.error} onRetry={() => void ledger.refetch()} />;
  return (
    <Stack gap="sm" data-testid="capability-ledger">
      {(ledger.data?.items ?? []).map((row) => (
        <Stack key={row.capability} gap={4} data-capability-row={row.capability}>
          <Group gap="xs">
            <Text size="sm" fw={600}>
              {row.capability}
            </Text>
            <CapabilityValue value={row.value} />
            <Text size="xs" c="dimmed" data-testid="capability-confirmed">
              confirmed <TimeAgo iso={row.checkedAt} /> by {CONFIRMED_BY[row.confirmedBy]}
            </Text>
          </Group>
          {row.detail && (
            <Text size="sm">
              {row.value === 'UNKNOWN' ? `Uncertain: ${row.detail}. Controls stay enabled.` : row.detail}
            </Text>
          )}
          {row.snippet && <ConfigSnippet snippet={row.snippet} />}
        </Stack>
      ))}
    </Stack>
  );
}
