// Job rr.retention: deletes correlations stored before now − events.retention (rr_event is kept as long as broker
// events), in slices so one run never holds a long lock on a large table.
import type { JobContext, JobResult } from '@/modules/kernel/plugin/index.ts';
import { EVENTS_SETTINGS } from '@/modules/feature/events/index.ts';

const SLICE = 10_000;

export async function run(context: JobContext): Promise<JobResult> {
  const cutoff = new Date(Date.now() - context.settings.duration(EVENTS_SETTINGS.retention));
  let deleted = 0;
  for (;;) {
    const { rowCount: count } = await context.db.execute(
      `DELETE FROM rr_event WHERE (cluster_id, key_hash) IN (
         SELECT cluster_id, key_hash FROM rr_event WHERE stored_at < $1 ORDER BY stored_at LIMIT ${SLICE})`,
      [cutoff],
    );
    deleted += count;
    if (count < SLICE) break;
  }
  return { summary: `${deleted} correlations stored before ${cutoff.toISOString()} deleted` };
}
