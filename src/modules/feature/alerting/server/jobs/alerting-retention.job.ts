// Job alerting.retention: deletes alert history older than alerting.retention — resolved alerts (their delivery
// logs go with them), test sends, and the transition log — in slices so one run never holds a long lock.
import type { JobContext, JobResult } from '@/modules/kernel/plugin/index.ts';
import { ALERTING_SETTINGS } from '../alerting.settings.ts';

const SLICE = 10_000;

async function deleteInSlices(context: JobContext, sql: string, cutoff: Date): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { rowCount: count } = await context.db.execute(sql, [cutoff]);
    deleted += count;
    if (count < SLICE || context.signal.aborted) return deleted;
  }
}

export async function run(context: JobContext): Promise<JobResult> {
  const cutoff = new Date(Date.now() - context.settings.duration(ALERTING_SETTINGS.retention));
  const alerts = await deleteInSlices(
    context,
    `DELETE FROM alert WHERE id IN (
       SELECT id FROM alert WHERE state = 'resolved' AND resolved_at < $1 ORDER BY resolved_at LIMIT ${SLICE})`,
    cutoff,
  );
  const tests = await deleteInSlices(
    context,
    `DELETE FROM alert_delivery WHERE id IN (
       SELECT id FROM alert_delivery WHERE alert_id IS NULL AND at < $1 ORDER BY at LIMIT ${SLICE})`,
    cutoff,
  );
  const transitions = await deleteInSlices(
    context,
    `DELETE FROM alert_transition WHERE seq IN (
       SELECT seq FROM alert_transition WHERE at < $1 ORDER BY at LIMIT ${SLICE})`,
    cutoff,
  );
  return {
    summary: `before ${cutoff.toISOString()}: ${alerts} resolved alerts, ${tests} test sends and ${transitions} transitions deleted`,
  };
}
