// Job scrape.metric-retention: drops metric_sample partitions older than scrape.metric-retention, and deletes the
// node samples of the same days.
import type { JobContext, JobResult } from '@/modules/kernel/plugin/index.ts';
import { dropExpiredPartitions } from '../partition-maintenance.ts';
import { SCRAPE_SETTINGS } from '../scrape.settings.ts';

export async function run(context: JobContext): Promise<JobResult> {
  const cutoff = await dropExpiredPartitions(
    (sql) => context.db.execute(sql),
    context.settings.duration(SCRAPE_SETTINGS.metricRetention),
  );
  const { rowCount } = await context.db.execute('DELETE FROM node_metric_sample WHERE ts < $1', [cutoff]);
  return {
    summary: `partitions of days ended before ${cutoff.toISOString()} dropped; ${String(rowCount)} node samples deleted`,
  };
}
