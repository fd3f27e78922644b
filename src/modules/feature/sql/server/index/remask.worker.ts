// The worker service that keeps message_index under the policy in force (remask.ts), every REMASK_EVERY_MS.
import { borrowedDatabase } from '@/base/db/database.ts';
import type { RunningWorkerService, WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import { startRemaskLoop } from '@/modules/platform/governance/index.ts';
import { remaskIndexBatch } from './remask.ts';

const REMASK_EVERY_MS = 15_000;

export function start(context: WorkerServiceContext): Promise<RunningWorkerService> {
  const runtime = { db: borrowedDatabase(context.pool, context.prisma), bus: context.bus };
  return Promise.resolve(
    startRemaskLoop({
      remaskBatch: (limit) => remaskIndexBatch(runtime, limit),
      intervalMs: () => REMASK_EVERY_MS,
      label: 'sql message index',
    }),
  );
}
