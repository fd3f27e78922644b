// Numbers and marks shared by the grid, the detail view and the selection panel.
import { Badge, Group, Text, Tooltip } from '@mantine/core';

const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });

export const formatCount = (value: number) => integer.format(value);

/** A count that is right-aligned and marked when some of it comes from a stale node. */
export function Count({ value, stale = false }: { value: number; stale?: boolean }) {
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Text size="sm" ff="monospace">
        {formatCount(value)}
      </Text>
      {stale && <StaleMark />}
    </Group>
  );
}

export function StaleMark() {
  return (
    <Tooltip label="Includes numbers from a node whose last sweep is old; they are kept, not dropped">
      <Badge size="xs" color="orange" variant="light" data-testid="stale-mark">
        stale
      </Badge>
    </Tooltip>
  );
}

export function NodesPresent({ present, total }: { present: number; total: number }) {
  return (
    <Text size="sm" c={present < total ? 'orange' : undefined} aria-label={`on ${present} of ${total} nodes`}>
      {present} / {total}
    </Text>
  );
}
