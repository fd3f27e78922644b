// Job sql.capture-reconcile: one capture reconcile pass over every cluster this worker owns (see
// capture/capture-reconciler.ts). Not exclusive: each worker runs it for the clusters it owns, and the per-cluster
// advisory lock keeps two passes of one cluster apart.
import type { JobContext, JobResult } from '@/modules/kernel/plugin/index.ts';
import { captureRuntime } from '../capture/capture-runtime.ts';

export async function run(context: JobContext): Promise<JobResult> {
  const capture = captureRuntime();
  if (!capture) return { summary: 'no capture service runs in this process: nothing reconciled' };
  const outcomes = await capture.reconcileOwned();
  context.log(`reconciled ${outcomes.length} cluster(s)`);
  const total = (key: 'installed' | 'removed' | 'refused' | 'failed') =>
    outcomes.reduce((sum, outcome) => sum + outcome[key], 0);
  const locked = outcomes.filter((outcome) => outcome.skipped === 'locked').length;
  // A pass that could not run at all (its cluster's credentials unreadable, say) is named apart from failed taps.
  const notRun = outcomes.filter((outcome) => outcome.error !== undefined);
  const taps = `${total('installed')} tap(s) installed, ${total('removed')} removed, ${total('refused')} refused, ${total('failed') - notRun.length} failed`;
  return {
    summary: `${outcomes.length} owned cluster(s): ${taps}${locked ? `, ${locked} held by another pass` : ''}${notRun.length ? `, ${notRun.length} could not run (${notRun[0]?.error ?? ''})` : ''}`,
  };
}
