// Job audit.interrupted-sweep: PENDING rows whose process ended (kill -9, a crash, a lost machine) are finished as
// INTERRUPTED (interrupted-sweep.ts, ADR 35), then each cluster they name gets a `health` signal, after the commit.
import type { JobContext, JobResult } from '@/modules/kernel/plugin/index.ts';
import { sweepInterrupted } from '../interrupted-sweep.ts';
import { processPool } from '../process-start.ts';

export async function run(context: JobContext): Promise<JobResult> {
  const pool = processPool();
  if (!pool) return { summary: 'no audit runtime in this process: nothing swept' };
  const swept = await sweepInterrupted(pool);
  const clusters = new Set(swept.flatMap((row) => (row.clusterId ? [row.clusterId] : [])));
  for (const clusterId of clusters) await context.publishSignal('health', clusterId);
  if (swept.length > 0) context.log(`audit rows interrupted: ${swept.map((row) => row.id).join(', ')}`);
  return { summary: `${swept.length} PENDING row${swept.length === 1 ? '' : 's'} of ended processes interrupted` };
}
