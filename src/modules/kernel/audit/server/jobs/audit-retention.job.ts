// Deletes audit rows past `audit.retention` in batches, so a large backlog never holds a long lock.
import type { JobContext, JobResult } from '@/modules/kernel/plugin/index.ts';
import { AUDIT_SETTINGS } from '../audit.settings.ts';

const BATCH_SIZE = 5_000;

export async function run(context: JobContext): Promise<JobResult> {
  const cutoff = new Date(Date.now() - context.settings.duration(AUDIT_SETTINGS.retention));
  let deleted = 0;
  for (;;) {
    if (context.signal.aborted) break;
    const { rowCount } = await context.db.execute(
      `DELETE FROM audit_event WHERE id IN (
         SELECT id FROM audit_event WHERE started_at < $1 ORDER BY started_at LIMIT ${BATCH_SIZE})`,
      [cutoff],
    );
    deleted += rowCount;
    if (rowCount < BATCH_SIZE) break;
  }
  return { summary: `deleted ${deleted} audit row${deleted === 1 ? '' : 's'} older than ${cutoff.toISOString()}` };
}
