// Job sql.index-partitions: makes message_index's partitions from yesterday to the days ahead, and drops the whole
// day partitions past sql.index.retention (rows are never deleted one by one).
import type { JobContext, JobResult } from '@/modules/kernel/plugin/index.ts';
import { dropExpiredIndexPartitions, makeIndexPartitions } from '../index/partition-maintenance.ts';
import { SQL_SETTINGS } from '../sql.settings.ts';

export async function run(context: JobContext): Promise<JobResult> {
  const execute = (sql: string) => context.db.execute(sql);
  const names = await makeIndexPartitions(execute);
  const cutoff = await dropExpiredIndexPartitions(execute, context.settings.duration(SQL_SETTINGS.indexRetention));
  return {
    summary: `partitions up to ${names.at(-1) ?? '-'} exist; those of days ended before ${cutoff.toISOString()} dropped`,
  };
}
