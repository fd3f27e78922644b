import { Badge } from '@mantine/core';
import { HEALTH_COLORS, type Health } from './cluster-health.ts';

export function HealthBadge({ health }: { health: Health }) {
  return (
    <Badge size="sm" variant="dot" color={HEALTH_COLORS[health]} data-health={health}>
      {health}
    </Badge>
  );
}
