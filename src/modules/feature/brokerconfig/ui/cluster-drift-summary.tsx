'use client';
// The brokerconfig module's `cluster.header` panel on a cluster's overview: how many declared items drifted or are
// missing on a live node, since when it was evaluated, and the way to the configuration screen.
import { Anchor, Group, Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/ui/data/trpc.ts';
import type { PanelSlotProps } from '@/ui/slots/contribution-types.ts';
import { useLive } from '@/ui/stream/live-query.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { plural } from './config-format.ts';
import { configPath } from './config-paths.ts';

export function ClusterDriftSummary({ clusterId }: PanelSlotProps['cluster.header']) {
  const trpc = useTRPC();
  const overview = useQuery({ ...trpc.brokerconfig.overview.queryOptions({ clusterId }), ...useLive(['config']) });
  const data = overview.data;
  const drifted = data?.driftedCount;
  return (
    <Paper withBorder p="sm" radius="md" aria-label="Broker configuration" data-testid="cluster-config-summary">
      <Group justify="space-between" mih={24}>
        <Text size="sm" data-drifted={drifted === undefined ? undefined : String(drifted)}>
          {data === undefined ? (
            'Configuration'
          ) : data.revision === null ? (
            'Configuration: nothing declared yet'
          ) : (
            <>
              Configuration: {drifted === 0 ? 'every item in sync' : `${plural(drifted ?? 0, 'item', 'items')} drifted`}
              {data.evaluatedAt && (
                <>
                  {' '}
                  (evaluated <TimeAgo iso={data.evaluatedAt} inline />)
                </>
              )}
            </>
          )}
        </Text>
        <Anchor component={Link} href={configPath(clusterId)} size="sm">
          Open configuration
        </Anchor>
      </Group>
    </Paper>
  );
}
