import { Badge, Code, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import type { Column } from '@/ui/table/column.ts';
import { formatDuration } from '@/ui/time/format-time.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';

/** "every 1 h" for an interval job, the cron expression for a cron job. */
export function scheduleInWords(job: { schedule: string; intervalMs: number | null }): string {
  if (job.schedule.startsWith('cron ') || job.intervalMs === null) return job.schedule;
  return `every ${intervalInWords(job.intervalMs)}`;
}

/** The largest unit that divides the interval evenly: 1 d, 6 h, 90 min, 30 s. */
function intervalInWords(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1_000, 's'],
  ];
  const [size, unit] = units.find(([candidate]) => ms >= candidate && ms % candidate === 0) ?? [1, 'ms'];
  return `${ms / size} ${unit}`;
}

export type JobRow = RouterOutputs['jobs']['list']['items'][number];

const STATUS_LOOK: Record<JobRow['status'], { color: string; hint: string }> = {
  OK: { color: 'teal', hint: 'Ran on time.' },
  WAITING: { color: 'gray', hint: 'Has not run yet on this instance.' },
  FAILING: { color: 'red', hint: 'The last run failed.' },
  DEGRADED: { color: 'orange', hint: 'No successful run for more than three intervals.' },
};

function JobStatus({ job }: { job: JobRow }) {
  const look = STATUS_LOOK[job.status];
  return (
    <Tooltip label={look.hint} withArrow>
      <Badge
        variant={job.status === 'DEGRADED' ? 'filled' : 'light'}
        color={look.color}
        leftSection={job.status === 'DEGRADED' ? <IconAlertTriangle size={12} aria-hidden /> : undefined}
        data-status={job.status}
      >
        {job.status.toLowerCase()}
        {job.running ? ' · running' : ''}
      </Badge>
    </Tooltip>
  );
}

export const JOB_COLUMNS: readonly Column<JobRow>[] = [
  {
    id: 'id',
    header: 'Job',
    sortField: 'id',
    width: 280,
    cell: (job) => (
      <Stack gap={2}>
        <Code fw={600} style={{ alignSelf: 'flex-start' }}>
          {job.id}
        </Code>
        <Text size="xs" c="dimmed" lineClamp={2}>
          {job.description}
        </Text>
      </Stack>
    ),
  },
  { id: 'module', header: 'Module', sortField: 'module', width: 100, cell: (job) => job.module },
  { id: 'status', header: 'Status', sortField: 'status', width: 130, cell: (job) => <JobStatus job={job} /> },
  {
    id: 'schedule',
    header: 'Schedule',
    width: 170,
    // The interval a person reads ("every 1 h"); the setting or cron expression behind it is the hint.
    cell: (job) => (
      <Tooltip label={job.schedule} withArrow>
        <Text size="xs" data-testid="job-interval" style={{ overflowWrap: 'anywhere' }}>
          {scheduleInWords(job)}
        </Text>
      </Tooltip>
    ),
  },
  {
    id: 'lastRun',
    header: 'Last run',
    sortField: 'lastFinishedAt',
    width: 200,
    cell: (job) => <TimeAgo iso={job.lastFinishedAt} empty="never" />,
  },
  {
    id: 'lastResult',
    header: 'Result',
    cell: (job) => (
      <Stack gap={0}>
        <Group gap={6} wrap="nowrap">
          <Text size="sm">{job.lastOutcome?.toLowerCase() ?? '—'}</Text>
          {job.lastDurationMs !== null && (
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              in {formatDuration(job.lastDurationMs)}
            </Text>
          )}
        </Group>
        {job.lastError ? (
          <Text size="xs" c="red" lineClamp={2}>
            {job.lastError}
          </Text>
        ) : (
          job.lastSummary && (
            <Text size="xs" c="dimmed" lineClamp={2}>
              {job.lastSummary}
            </Text>
          )
        )}
      </Stack>
    ),
  },
  { id: 'nextRun', header: 'Next run', width: 200, cell: (job) => <TimeAgo iso={job.nextRunAt} /> },
  { id: 'instance', header: 'Instance', hiddenByDefault: true, cell: (job) => job.instanceId },
  { id: 'failures', header: 'Failures in a row', hiddenByDefault: true, cell: (job) => job.consecutiveFailures },
];
