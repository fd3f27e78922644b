// Job events.retention: deletes broker events received before now − events.retention, in slices so one run never
// holds a long lock on a large table.
import type { JobContext, JobResult } from '@/modules/kernel/plugin/index.ts';
import { EVENTS_SETTINGS } from '../events.settings.ts';

const SLICE = 10_000;

export async function run(context: JobContext): Promise<JobResult> {
  const cutoff = new Date(Date.now() - context.settings.duration(EVENTS_SETTINGS.retention));
  let deleted = 0;
  for (;;) {
    const { rowCount: count } = await context.db.execute(
      `DELETE FROM broker_event WHERE seq IN (
         SELECT seq FROM broker_event WHERE received_at < $1 ORDER BY received_at LIMIT ${SLICE})`,
      [cutoff],
    );
    deleted += count;
    if (count < SLICE) break;
  }
  return { summary: `${deleted} events received before ${cutoff.toISOString()} deleted` };
}
