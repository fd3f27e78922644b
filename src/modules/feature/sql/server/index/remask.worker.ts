// The worker service that keeps message_index under the policy in force: every REMASK_EVERY_MS it rewrites pending
// rows in batches (remask.ts) until none is left or the tick's budget is spent, so a policy change reaches every
// stored row without one long transaction. Several instances share the rows (SKIP LOCKED).
import { borrowedDatabase } from '@/base/db/database.ts';
import type { RunningWorkerService, WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import { remaskIndexBatch } from './remask.ts';

const BATCH = 500;
const BATCHES_PER_TICK = 40;
const REMASK_EVERY_MS = 15_000;

export function start(context: WorkerServiceContext): Promise<RunningWorkerService> {
  const runtime = { db: borrowedDatabase(context.pool, context.prisma), bus: context.bus };
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    for (let batch = 0; batch < BATCHES_PER_TICK && !stopped; batch++) {
      if ((await remaskIndexBatch(runtime, BATCH)) < BATCH) return;
    }
  };
  const loop = () => {
    if (stopped) return;
    running = tick()
      .catch((error: unknown) => console.error('[sql] message index remask failed:', error))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, REMASK_EVERY_MS);
      });
  };
  loop();
  return Promise.resolve({
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  });
}
