// One small badge per capability: green when available, red when not, grey when nothing could tell.
import { Badge, Group, Tooltip } from '@mantine/core';

const COLORS = { AVAILABLE: 'teal', UNAVAILABLE: 'red', UNKNOWN: 'gray' } as const;
const SHORT: Record<string, string> = {
  MANAGEMENT_READ: 'read',
  MANAGEMENT_WRITE: 'write',
  NOTIFICATIONS: 'notify',
  MESSAGE_IO: 'messages',
};

export function CapabilityValue({ value }: { value: 'AVAILABLE' | 'UNAVAILABLE' | 'UNKNOWN' }) {
  return (
    <Badge size="sm" variant="light" color={COLORS[value]} data-value={value}>
      {value.toLowerCase()}
    </Badge>
  );
}

// One order on every row (the ledger's rows come back in whatever order they were last written).
const ORDER = Object.keys(SHORT);
const rank = (capability: string) => (ORDER.includes(capability) ? ORDER.indexOf(capability) : ORDER.length);

export function CapabilityBadges({ values }: { values: Record<string, 'AVAILABLE' | 'UNAVAILABLE' | 'UNKNOWN'> }) {
  const ordered = Object.entries(values).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
  return (
    <Group gap={4} wrap="wrap">
      {ordered.map(([capability, value]) => (
        <Tooltip key={capability} label={`${capability}: ${value}`}>
          <Badge size="xs" variant="light" color={COLORS[value]} data-capability={capability}>
            {SHORT[capability] ?? capability}
          </Badge>
        </Tooltip>
      ))}
    </Group>
  );
}
