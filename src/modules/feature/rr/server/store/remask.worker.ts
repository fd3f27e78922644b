// The worker service that keeps stored correlations under the policy in force: on every rr.remask-interval it
// rewrites pending rows in batches (remask.ts) until none is left or the tick's budget is spent. Several instances
// share the rows (SKIP LOCKED).
import { borrowedDatabase } from '@/base/db/database.ts';
import type { RunningWorkerService, WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import { RR_SETTINGS } from '../rr.settings.ts';
import { remaskBatch } from './remask.ts';

const BATCH = 500;
const BATCHES_PER_TICK = 40;

export function start(context: WorkerServiceContext): Promise<RunningWorkerService> {
  const runtime = { db: borrowedDatabase(context.pool, context.prisma), bus: context.bus };
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    for (let batch = 0; batch < BATCHES_PER_TICK && !stopped; batch++) {
      if ((await remaskBatch(runtime, BATCH)) < BATCH) return;
    }
  };
  const loop = () => {
    if (stopped) return;
    running = tick()
      .catch((error: unknown) => console.error('[rr] remask failed:', error))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, context.settings.duration(RR_SETTINGS.remaskInterval));
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
