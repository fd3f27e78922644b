// The worker process: the one scheduler, plus every enabled module's worker services (scrape tiers, native
// connections, notification subscriptions, capture). Shutdown order (spec): broker calls and scrape, then
// subscriptions and capture, then pools — the scheduler's jobs are broker calls, so they stop with the scrape.
import { Scheduler } from '@/modules/kernel/jobs/index.ts';
import { onShutdown, tellSupervisor } from '@/server/process/child-lifecycle.ts';
import { openRuntime } from '@/server/runtime/runtime.ts';
import { startWorkerServices } from './services.ts';
import { logger, routeConsoleToLog, setLogProcess } from '@/base/log/log.ts';

const log = logger('worker');

setLogProcess('worker');
routeConsoleToLog('console');
const runtime = await openRuntime('worker');
const scheduler = new Scheduler({
  db: runtime.db,
  bus: runtime.bus,
  settings: runtime.settings,
  instanceId: runtime.instanceId,
  jobs: runtime.registry.enabledJobs(),
});

const services = scheduler.start().then(() => startWorkerServices(runtime));
onShutdown('worker', async () => {
  await scheduler.stop();
  await (await services.catch(() => undefined))?.stop();
  await runtime.close();
});

await services;
log.info(
  { instanceId: runtime.instanceId, jobs: runtime.registry.enabledJobs().length },
  `scheduling ${runtime.registry.enabledJobs().length} job(s)`,
);
tellSupervisor({ type: 'ready' });
