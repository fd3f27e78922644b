// Flotilla's own health as the worker records it in the database (so any web process of any instance answers for
// it): each node's last sweep per tier — duration, lag, limiter wait, staleness — and each job's last run per
// instance. The stream subscribers are the answering process's own (each web process holds its streams).
import type { SweepView } from '@/modules/platform/scrape/read/index.ts';
import type { MetricFamily } from './metric-source.ts';
import { gauge, samplesOf } from './families.ts';

type Sweep = SweepView & { clusterId: string };

export interface JobRow {
  readonly jobId: string;
  readonly instanceId: string;
  readonly lastOutcome: string | null;
  readonly lastDurationMs: number | null;
  readonly lastCompletedAt: Date | null;
  readonly consecutiveFailures: number;
  readonly health: string;
}

const seconds = (ms: number | null) => (ms === null ? null : ms / 1000);

export function sweepFamilies(
  sweeps: readonly Sweep[],
  clusterNames: ReadonlyMap<string, string>,
  nodeLabel: (nodeId: string) => string,
  now: Date,
): MetricFamily[] {
  const swept = sweeps.filter((sweep) => sweep.intervalMs !== null);
  const labels = (sweep: Sweep) => ({
    cluster: clusterNames.get(sweep.clusterId) ?? sweep.clusterId,
    node: nodeLabel(sweep.nodeId),
    tier: sweep.tier,
  });
  const names = ['cluster', 'node', 'tier'];
  return [
    gauge(
      'flotilla_scrape_duration_seconds',
      'How long the node’s last sweep of the tier took.',
      names,
      samplesOf(swept, labels, (sweep) => seconds(sweep.lastDurationMs)),
    ),
    gauge(
      'flotilla_scrape_lag_seconds',
      'Seconds since the node’s last completed sweep of the tier.',
      names,
      samplesOf(swept, labels, (sweep) =>
        sweep.lastCompletedAt === null ? null : Math.max(0, (now.getTime() - Date.parse(sweep.lastCompletedAt)) / 1000),
      ),
    ),
    gauge(
      'flotilla_scrape_interval_seconds',
      'The tier’s interval when the node’s last sweep ran.',
      names,
      samplesOf(swept, labels, (sweep) => seconds(sweep.intervalMs)),
    ),
    gauge(
      'flotilla_scrape_stale',
      '1 when the tier’s last completed sweep is older than two intervals.',
      names,
      samplesOf(swept, labels, (sweep) => (sweep.stale ? 1 : 0)),
    ),
    gauge(
      'flotilla_scrape_limiter_wait_seconds',
      'How long the node’s last sweep of the tier waited for the per-node limiter.',
      names,
      samplesOf(swept, labels, (sweep) => seconds(sweep.limiterWaitMs)),
    ),
    gauge(
      'flotilla_scrape_rows_persisted',
      'Queue rows the node’s last sweep of the tier wrote.',
      names,
      samplesOf(swept, labels, (sweep) => sweep.rowsPersisted),
    ),
  ];
}

const JOB_HEALTHS = ['OK', 'FAILING', 'DEGRADED', 'WAITING'] as const;

export function jobFamilies(jobs: readonly JobRow[]): MetricFamily[] {
  const labels = (job: JobRow) => ({ job: job.jobId, worker_instance: job.instanceId });
  const names = ['job', 'worker_instance'];
  return [
    gauge(
      'flotilla_job_last_success',
      '1 when the job’s last run succeeded (or was skipped: another instance held it), 0 when it failed.',
      names,
      samplesOf(jobs, labels, (job) => (job.lastOutcome === null ? null : job.lastOutcome === 'FAILED' ? 0 : 1)),
    ),
    gauge(
      'flotilla_job_last_duration_seconds',
      'How long the job’s last run took.',
      names,
      samplesOf(jobs, labels, (job) => seconds(job.lastDurationMs)),
    ),
    gauge(
      'flotilla_job_last_completed_timestamp_seconds',
      'When the job last ran successfully (or was skipped), Unix seconds.',
      names,
      samplesOf(jobs, labels, (job) => (job.lastCompletedAt ? job.lastCompletedAt.getTime() / 1000 : null)),
    ),
    gauge(
      'flotilla_job_consecutive_failures',
      'Failed runs of the job in a row.',
      names,
      samplesOf(jobs, labels, (job) => job.consecutiveFailures),
    ),
    gauge(
      'flotilla_job_health',
      '1 for the job’s health now (OK, FAILING, DEGRADED, WAITING), 0 for the others.',
      [...names, 'health'],
      jobs.flatMap((job) =>
        JOB_HEALTHS.map((health) => ({ labels: { ...labels(job), health }, value: job.health === health ? 1 : 0 })),
      ),
    ),
  ];
}
