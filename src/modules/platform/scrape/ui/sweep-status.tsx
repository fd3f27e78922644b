'use client';
// Cluster header contribution: per node the last sweep of each tier, red when stale, with the error on hover.
// Live: refetched on `health` and `queues` signals (a sweep that changes nothing sends none, so it also polls).
import { Badge, Group, Text, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { useLive } from '@/ui/stream/live-query.ts';

type Sweep = RouterOutputs['scrape']['sweeps']['items'][number];

const REFRESH_MS = 15_000;

function sweepLabel(sweep: Sweep): string {
  if (!sweep.lastCompletedAt) return `Tier ${sweep.tier}: never swept`;
  const seconds = Math.round((Date.now() - Date.parse(sweep.lastCompletedAt)) / 1000);
  const error = sweep.lastError ? ` — ${sweep.lastError}` : '';
  return `Tier ${sweep.tier}: ${seconds} s ago${sweep.stale ? ' (stale)' : ''}${error}`;
}

function byNode(sweeps: readonly Sweep[]): Map<string, Sweep[]> {
  const nodes = new Map<string, Sweep[]>();
  for (const sweep of sweeps) nodes.set(sweep.managementUrl, [...(nodes.get(sweep.managementUrl) ?? []), sweep]);
  return nodes;
}

export function SweepStatus({ clusterId }: { clusterId: string }) {
  const trpc = useTRPC();
  const live = useLive(['health', 'queues']);
  const query = useQuery({
    ...trpc.scrape.sweeps.queryOptions({ clusterId }),
    meta: live.meta,
    refetchInterval: live.refetchInterval === false ? REFRESH_MS : live.refetchInterval,
  });
  if (!query.data) return null;
  return (
    <Group gap="md" aria-label="Last sweeps">
      {[...byNode(query.data.items)].map(([node, sweeps]) => (
        <Group key={node} gap={4}>
          <Text size="xs" c="dimmed">
            {new URL(node).host}
          </Text>
          {sweeps.map((sweep) => (
            <Tooltip key={sweep.tier} label={sweepLabel(sweep)}>
              <Badge size="xs" variant="light" color={sweep.stale ? 'red' : 'teal'}>
                {sweep.tier}
              </Badge>
            </Tooltip>
          ))}
        </Group>
      ))}
    </Group>
  );
}
