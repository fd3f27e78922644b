'use client';
// The metrics module's second `queue.detail.panels` panel: the queue's consumer-health verdict, what it rests on,
// and what to do next. Live on the queues topic (each scrape sweep) and the events topic (a CONSUMER_SLOW).
import { Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import type { PanelSlotProps } from '@/ui/slots/contribution-types.ts';
import { useLive } from '@/ui/stream/live-query.ts';
import { VerdictBadge } from '@/ui/parts/verdict-badge.tsx';

const rate = (value: number | null) =>
  value === null ? '—' : `${value < 10 ? value.toFixed(1) : Math.round(value)}/s`;

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text size="sm" ff="monospace">
        {value}
      </Text>
    </Stack>
  );
}

export function ConsumerHealthPanel({ clusterId, queueName }: PanelSlotProps['queue.detail.panels']) {
  const trpc = useTRPC();
  const health = useQuery({
    ...trpc.metrics.consumerHealth.queryOptions({ clusterId, queue: queueName, page: 1, pageSize: 1 }),
    ...useLive(['queues', 'events']),
  });
  const item = health.data?.items[0];
  return (
    <Paper withBorder p="md" radius="md" aria-label="Consumer health" data-testid="queue-consumer-health">
      {health.isError ? (
        <ProblemView error={health.error} onRetry={() => void health.refetch()} />
      ) : (
        <Stack gap="sm">
          <Group justify="space-between">
            <Text fw={600}>Consumer health</Text>
            {item && <VerdictBadge verdict={item.verdict} />}
          </Group>
          {item ? (
            <>
              <Text size="sm">{item.advice}</Text>
              <SimpleGrid cols={{ base: 2, md: 6 }}>
                <Fact label="In" value={rate(item.evidence.inRate)} />
                <Fact label="Out" value={rate(item.evidence.outRate)} />
                <Fact
                  label="Depth"
                  value={`${String(item.evidence.depthAtStart ?? '—')} → ${String(item.evidence.depthAtEnd ?? '—')}`}
                />
                <Fact label="In delivery" value={String(item.evidence.delivering)} />
                <Fact label="Consumers" value={String(item.evidence.consumers)} />
                <Fact
                  label="Window"
                  value={`${String(Math.round(item.evidence.windowMs / 60_000))} min, ${String(item.evidence.samples)} samples`}
                />
              </SimpleGrid>
            </>
          ) : (
            <Text size="sm" c="dimmed">
              {health.isPending ? 'Judging…' : 'No node lists this queue.'}
            </Text>
          )}
        </Stack>
      )}
    </Paper>
  );
}
