// The worker service that evaluates drift of the clusters this worker owns (the scrape's ownership: one instance per
// cluster), every config.drift.interval, and signals `config` when a cluster's count of drifted items changed.
import type { RunningWorkerService, WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import { clusterOwnershipOf } from '@/modules/platform/clusters/index.ts';
import { BROKERCONFIG_SETTINGS } from '../brokerconfig.settings.ts';
import { evaluateDrift } from './evaluate-drift.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('brokerconfig');

export function start(context: WorkerServiceContext): Promise<RunningWorkerService> {
  const shared = clusterOwnershipOf(context.pool);
  const runtime = { prisma: context.prisma, settings: context.settings };
  const lastCounts = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  async function pass(): Promise<void> {
    const declared = await context.prisma.configRevision.findMany({
      distinct: ['clusterId'],
      select: { clusterId: true },
    });
    for (const { clusterId } of declared) {
      if (stopped) return;
      if (!shared.ownership.owns(clusterId)) continue;
      try {
        const summary = await evaluateDrift(runtime, clusterId);
        if (lastCounts.get(clusterId) !== summary.drifted) await context.publishSignal('config', clusterId);
        lastCounts.set(clusterId, summary.drifted);
      } catch (error) {
        log.warn({ err: error, clusterId }, 'cannot compute the drift');
      }
    }
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      running = pass().finally(schedule);
    }, context.settings.duration(BROKERCONFIG_SETTINGS.driftInterval));
    timer.unref();
  }
  schedule();
  // A changed interval counts from now, not after the period already waited for (a pass under way schedules itself).
  const stopListening = context.settings.onChange(BROKERCONFIG_SETTINGS.driftInterval.key, () => {
    if (!timer) return;
    clearTimeout(timer);
    schedule();
  });
  return Promise.resolve({
    async stop() {
      stopped = true;
      stopListening();
      if (timer) clearTimeout(timer);
      await running.catch(() => undefined);
      await shared.detach();
    },
  });
}
