// The worker process: the one scheduler now; scrape tiers, native connections, subscriptions and capture as their
// modules arrive. Shutdown order (spec): broker calls and scrape, then subscriptions and capture, then pools.
import { Scheduler } from '@/modules/kernel/jobs/server/scheduler.ts';
import { onShutdown, tellSupervisor } from '@/server/process/child-lifecycle.ts';
import { openRuntime } from '@/server/runtime/runtime.ts';

const runtime = await openRuntime('worker');
const scheduler = new Scheduler({
  db: runtime.db,
  bus: runtime.bus,
  settings: runtime.settings,
  instanceId: runtime.instanceId,
  jobs: runtime.registry.enabledJobs(),
});

onShutdown('worker', async () => {
  await scheduler.stop();
  await runtime.close();
});

await scheduler.start();
console.log(`[worker] ${runtime.instanceId}: scheduling ${runtime.registry.enabledJobs().length} job(s)`);
tellSupervisor({ type: 'ready' });
