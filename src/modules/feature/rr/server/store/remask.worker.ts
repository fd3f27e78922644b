// The worker service that keeps stored correlations under the policy in force (remask.ts), every rr.remask-interval.
import { borrowedDatabase } from '@/base/db/database.ts';
import type { RunningWorkerService, WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import { startRemaskLoop } from '@/modules/platform/governance/index.ts';
import { RR_SETTINGS } from '../rr.settings.ts';
import { remaskBatch } from './remask.ts';

export function start(context: WorkerServiceContext): Promise<RunningWorkerService> {
  const runtime = { db: borrowedDatabase(context.pool, context.prisma), bus: context.bus };
  return Promise.resolve(
    startRemaskLoop({
      remaskBatch: (limit) => remaskBatch(runtime, limit),
      intervalMs: () => context.settings.duration(RR_SETTINGS.remaskInterval),
      label: 'rr',
    }),
  );
}
