// What the job list and the jobs health indicator show: declared jobs merged with the status rows the worker
// writes. A job is DEGRADED when its last counted run is more than three intervals old (the spec's rule).
import type { JobDeclaration } from '@/modules/kernel/plugin/index.ts';

const MISSED_INTERVALS_BEFORE_DEGRADED = 3;

export type JobHealth = 'OK' | 'FAILING' | 'DEGRADED' | 'WAITING';

export interface JobStatusRow {
  readonly jobId: string;
  readonly instanceId: string;
  readonly schedule: string;
  readonly intervalMs: number;
  readonly lastStartedAt: Date | null;
  readonly lastFinishedAt: Date | null;
  readonly lastDurationMs: number | null;
  readonly lastOutcome: string | null;
  readonly lastError: string | null;
  readonly lastSummary: string | null;
  readonly lastCompletedAt: Date | null;
  readonly nextRunAt: Date | null;
  readonly consecutiveFailures: number;
  readonly scheduledSince: Date;
}

export interface JobView {
  readonly id: string;
  readonly module: string;
  readonly description: string;
  readonly instanceId: string;
  readonly schedule: string;
  readonly intervalMs: number | null;
  readonly running: boolean;
  readonly lastStartedAt: string | null;
  readonly lastFinishedAt: string | null;
  readonly lastDurationMs: number | null;
  readonly lastOutcome: string | null;
  readonly lastError: string | null;
  readonly lastSummary: string | null;
  readonly nextRunAt: string | null;
  readonly consecutiveFailures: number;
  readonly status: JobHealth;
}

export function describeSchedule(schedule: JobDeclaration['schedule']): string {
  return 'cron' in schedule ? `cron ${schedule.cron}` : `every ${schedule.everySetting}`;
}

export function jobHealth(row: JobStatusRow | undefined, now: Date): JobHealth {
  if (!row) return 'WAITING';
  const reference = row.lastCompletedAt ?? row.scheduledSince;
  if (now.getTime() - reference.getTime() > MISSED_INTERVALS_BEFORE_DEGRADED * row.intervalMs) return 'DEGRADED';
  if (row.lastOutcome === 'FAILED') return 'FAILING';
  return row.lastCompletedAt ? 'OK' : 'WAITING';
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function toJobView(
  job: JobDeclaration & { moduleId: string },
  row: JobStatusRow | undefined,
  instanceId: string,
  now: Date,
): JobView {
  return {
    id: job.id,
    module: job.moduleId,
    description: job.description,
    instanceId,
    schedule: row?.schedule ?? describeSchedule(job.schedule),
    intervalMs: row?.intervalMs ?? null,
    running: Boolean(row?.lastStartedAt && (!row.lastFinishedAt || row.lastFinishedAt < row.lastStartedAt)),
    lastStartedAt: iso(row?.lastStartedAt ?? null),
    lastFinishedAt: iso(row?.lastFinishedAt ?? null),
    lastDurationMs: row?.lastDurationMs ?? null,
    lastOutcome: row?.lastOutcome ?? null,
    lastError: row?.lastError ?? null,
    lastSummary: row?.lastSummary ?? null,
    nextRunAt: iso(row?.nextRunAt ?? null),
    consecutiveFailures: row?.consecutiveFailures ?? 0,
    status: jobHealth(row, now),
  };
}
