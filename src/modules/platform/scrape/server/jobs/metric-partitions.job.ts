// Job scrape.metric-partitions: makes metric_sample's partitions for today and the next days.
import type { JobContext, JobResult } from '@/modules/kernel/plugin/index.ts';
import { makePartitionsAhead } from '../partition-maintenance.ts';

export async function run(context: JobContext): Promise<JobResult> {
  const names = await makePartitionsAhead((sql) => context.db.execute(sql));
  return { summary: `partitions up to ${names.at(-1) ?? '-'} exist` };
}
