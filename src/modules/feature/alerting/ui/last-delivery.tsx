'use client';
// A channel's newest delivery: its outcome, when, and the answer (a failing channel reads as such at a glance).
import { Badge, Group, Stack, Text } from '@mantine/core';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import type { ChannelRow } from './channel-row.ts';

const DELIVERY_COLOR: Record<string, string> = { delivered: 'teal', failed: 'red', pending: 'gray' };

export function LastDelivery({ row }: { row: ChannelRow }) {
  const last = row.lastDelivery;
  if (!last)
    return (
      <Text size="xs" c="dimmed">
        never sent
      </Text>
    );
  return (
    <Stack
      gap={2}
      data-testid="last-delivery"
      data-status={last.status}
      title={`${last.event}: ${last.response ?? ''}`}
    >
      <Group gap={6} wrap="nowrap">
        <Badge size="sm" variant="light" color={DELIVERY_COLOR[last.status] ?? 'gray'}>
          {last.status}
        </Badge>
        <Text size="xs" c="dimmed" truncate maw={90}>
          {last.response ?? ''}
        </Text>
      </Group>
      <TimeAgo iso={last.at} inline />
    </Stack>
  );
}
