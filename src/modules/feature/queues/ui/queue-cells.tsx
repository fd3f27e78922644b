// The queue grid's cells that are more than a number: rates, the depth trend, the consumer-health verdict, the
// nodes holding the queue and its state marks. queue-columns.tsx puts them in columns.
import { Badge, Group, Text, Tooltip } from '@mantine/core';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import { Sparkline } from '@/ui/chart/sparkline.tsx';
import { VerdictBadge } from '@/ui/parts/verdict-badge.tsx';
import { NodesPresent } from './queue-numbers.tsx';

export type QueueGridRow = RouterOutputs['queues']['list']['items'][number];

/** Messages per second: one decimal below 10, whole numbers above; a dash while not known. */
export function Rate({ value }: { value: number | null }) {
  if (value === null)
    return (
      <Text size="sm" c="dimmed" ff="monospace">
        —
      </Text>
    );
  return (
    <Text size="sm" ff="monospace">
      {value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString('en')}
    </Text>
  );
}

export function TrendCell({ row }: { row: QueueGridRow }) {
  return row.trend ? (
    <Sparkline values={row.trend.depth} label={`Depth of ${row.queueName} over the last 15 minutes`} />
  ) : (
    <Text size="xs" c="dimmed">
      no samples
    </Text>
  );
}

export function VerdictCell({ row }: { row: QueueGridRow }) {
  return row.verdict ? (
    <VerdictBadge verdict={row.verdict} size="sm" />
  ) : (
    <Text size="xs" c="dimmed">
      not judged
    </Text>
  );
}

/** A store-and-forward queue lives on one node by design: not a partial presence. */
export function NodesCell({ row }: { row: QueueGridRow }) {
  return row.internal ? (
    <Text size="sm" c="dimmed">
      {row.nodesPresent}
    </Text>
  ) : (
    <NodesPresent present={row.nodesPresent} total={row.nodesTotal} />
  );
}

/** Paused or active, and marked when it is a dead-letter or expiry queue, or internal. */
export function StateCell({ row }: { row: QueueGridRow }) {
  return (
    <Group gap={4} wrap="nowrap">
      {row.paused ? (
        <Badge size="sm" color="yellow" variant="light">
          paused
        </Badge>
      ) : (
        <Text size="sm" c="dimmed">
          active
        </Text>
      )}
      {row.deadLetter && (
        <Tooltip label="Its address is a dead-letter or expiry address in the brokers’ own address settings">
          <Badge size="sm" color={row.deadLetterKind === 'expiry' ? 'yellow' : 'red'} variant="outline">
            {row.deadLetterKind === 'expiry' ? 'expiry' : 'DLQ'}
          </Badge>
        </Tooltip>
      )}
      {row.internal && (
        <Badge size="sm" color="gray" variant="outline">
          internal
        </Badge>
      )}
    </Group>
  );
}
