// The worker service that keeps stored events under the policy in force (remask.ts), every events.remask-interval.
import { borrowedDatabase } from '@/base/db/database.ts';
import type { RunningWorkerService, WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import { startRemaskLoop } from '@/modules/platform/governance/index.ts';
import { EVENTS_SETTINGS } from './events.settings.ts';
import { remaskBatch } from './remask.ts';

export function start(context: WorkerServiceContext): Promise<RunningWorkerService> {
  const runtime = { db: borrowedDatabase(context.pool, context.prisma), bus: context.bus };
  return Promise.resolve(
    startRemaskLoop({
      remaskBatch: (limit) => remaskBatch(runtime, limit),
      intervalMs: () => context.settings.duration(EVENTS_SETTINGS.remaskInterval),
      label: 'events',
    }),
  );
}
