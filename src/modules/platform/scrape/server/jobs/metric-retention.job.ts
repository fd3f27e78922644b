// Job scrape.metric-retention: drops metric_sample partitions older than scrape.metric-retention.
import type { JobContext, JobResult } from '../../../../kernel/plugin/descriptor.ts';
import { dropExpiredPartitions } from '../partition-maintenance.ts';
import { SCRAPE_SETTING_KEYS } from '../scrape.settings.ts';

export async function run(context: JobContext): Promise<JobResult> {
  const cutoff = await dropExpiredPartitions(
    (sql) => context.db.execute(sql),
    context.settings.duration(SCRAPE_SETTING_KEYS.metricRetention),
  );
  return { summary: `partitions of days ended before ${cutoff.toISOString()} dropped` };
}
