// The correlator worker service (stage `subscriptions`): the RrRuntime of this worker, for the clusters it owns.
import { borrowedDatabase } from '@/base/db/database.ts';
import type { RunningWorkerService, WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import { clusterOwnershipOf } from '@/modules/platform/clusters/index.ts';
import { EXPECTATIONS_CHANNEL } from '../expectations.ts';
import { capturedAddressesOf } from '../feeds/captured-addresses.ts';
import { RrWriter } from '../store/rr-writer.ts';
import { RrRuntime } from './rr-runtime.ts';
import { installRuntime } from './runtime-holder.ts';

export function start(context: WorkerServiceContext): Promise<RunningWorkerService> {
  const shared = clusterOwnershipOf(context.pool);
  const writer = new RrWriter({
    pool: context.pool,
    governance: { db: borrowedDatabase(context.pool, context.prisma), bus: context.bus },
    publishSignal: context.publishSignal,
  });
  const runtime = new RrRuntime({
    prisma: context.prisma,
    settings: context.settings,
    owns: (clusterId) => shared.ownership.owns(clusterId),
    owned: () => shared.ownership.owned(),
    writer,
    capturedAddresses: (clusterId) => capturedAddressesOf(context, clusterId),
  });
  installRuntime(runtime);
  const unlisten = context.bus.listen(EXPECTATIONS_CHANNEL, (clusterId) => runtime.expectationsChanged(clusterId));
  runtime.start();
  return Promise.resolve({
    async stop() {
      unlisten();
      installRuntime(undefined);
      await runtime.stop();
      await shared.detach();
    },
  });
}
