// A consumer-health verdict as a badge, coloured by how much it needs someone: the metrics module's screens, triage
// and the queue grid show verdicts alike (the grid through an extension point, so it cannot import metrics' UI).
import { Badge, type BadgeProps } from '@mantine/core';
import { isVerdict, verdictLabel, type Verdict } from '@/base/consumer-verdicts.ts';

const COLORS: Record<Verdict, string> = {
  BROKER_SLOW: 'red',
  STALLED: 'red',
  STARVED: 'red',
  NO_CONSUMERS: 'orange',
  FALLING_BEHIND: 'orange',
  PAUSED: 'yellow',
  INSUFFICIENT_DATA: 'gray',
  DRAINING: 'teal',
  HEALTHY: 'teal',
};

/** A verdict in words, coloured by how much it needs someone. */
export function VerdictBadge({ verdict, size }: { verdict: string; size?: BadgeProps['size'] }) {
  return (
    <Badge
      variant="light"
      size={size}
      color={isVerdict(verdict) ? COLORS[verdict] : 'gray'}
      data-verdict={verdict}
      tt="none"
      miw={110}
    >
      {verdictLabel(verdict)}
    </Badge>
  );
}
