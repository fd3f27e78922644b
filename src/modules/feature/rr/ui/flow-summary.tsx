'use client';
// One request address's numbers over the window: requests, latency percentiles, the timed-out share and the count
// of each state.
import { Paper, SimpleGrid, Text } from '@mantine/core';
import { ms, percent, STATE_COLOR, STATES, type FlowSummary } from './rr-format.ts';

function Stat({ label, value, color, testId }: { label: string; value: string; color?: string; testId: string }) {
  return (
    <Paper withBorder p="xs" radius="md" data-testid={`stat-${testId}`}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="lg" fw={700} c={color} data-testid="stat-value">
        {value}
      </Text>
    </Paper>
  );
}

export function FlowSummaryStats({ summary }: { summary: FlowSummary }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="xs" aria-label="Summary" data-testid="flow-summary">
      <Stat label="Requests" value={String(summary.requests)} testId="requests" />
      <Stat label="p50" value={ms(summary.p50)} testId="p50" />
      <Stat label="p95" value={ms(summary.p95)} testId="p95" />
      <Stat label="p99" value={ms(summary.p99)} testId="p99" />
      <Stat label="Timed out" value={percent(summary.timedOutShare)} testId="timedOutShare" />
      {STATES.map((state) => (
        <Stat
          key={state}
          label={state}
          value={String(summary.states[state])}
          color={summary.states[state] > 0 ? STATE_COLOR[state] : undefined}
          testId={state}
        />
      ))}
    </SimpleGrid>
  );
}
