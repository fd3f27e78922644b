// The worker service of alerting: after every scrape tier of a cluster this process owns (once fleet-wide), the
// cluster's rules are evaluated in the notification's own turn (in order, one cluster's evaluations never overlap);
// a registered cluster gets its built-in rules; queued deliveries are sent by a loop of their own, woken after an
// evaluation that queued some and every second otherwise, so a slow channel never holds evaluation up. The open
// alerts of the clusters it evaluates are kept between ticks (open-alert-memory.ts).
import type { RunningWorkerService, WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import { clusterOwnershipOf } from '@/modules/platform/clusters/index.ts';
import { INSTALLATION_SCOPE_ID } from '@/modules/kernel/stream/index.ts';
import { deliverDue } from './deliverer.ts';
import { onAnnouncedTransitions } from './alert-stream.ts';
import { EvaluationCounts } from './evaluation-counts.ts';
import { evaluateCluster, installBuiltInRules } from './evaluator.ts';
import { OpenAlertMemory } from './open-alert-memory.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('alerting');

const DELIVERY_POLL_MS = 1_000;
/** How often the evaluation counts (GET /metrics) are added to alert_evaluation. */
const COUNTS_FLUSH_MS = 10_000;

export function start(context: WorkerServiceContext): Promise<RunningWorkerService> {
  const shared = clusterOwnershipOf(context.pool);
  const db = {
    pool: context.pool,
    prisma: context.prisma,
    query: async <Row>(sql: string, params: readonly unknown[] = []) =>
      (await context.pool.query(sql, [...params])).rows as Row[],
    close: () => Promise.resolve(),
  };
  // Open alerts kept between ticks (open-alert-memory.ts): dropped on anything that may have changed them elsewhere.
  const memory = new OpenAlertMemory();
  const forgetAnnounced = onAnnouncedTransitions(context.bus, (clusterId) => memory.forget(clusterId));
  const forgetOnReconnect = context.bus.onReconnect(() => memory.forget());
  const forgetLost = shared.ownership.onLost((clusterIds) => clusterIds.forEach((id) => memory.forget(id)));
  const forgetReleased = shared.ownership.onRelease((clusterId) => memory.forget(clusterId));
  const deps = {
    db,
    prisma: context.prisma,
    registry: context.registry,
    bus: context.bus,
    settings: context.settings,
    memory,
  };
  let stopped = false;
  const counts = new EvaluationCounts();
  let delivering: Promise<void> | undefined;
  const isStopped = () => stopped;

  function deliver(): void {
    if (stopped || delivering) return;
    delivering = (async () => {
      try {
        while ((await deliverDue(deps)) > 0 && !isStopped());
      } catch (error) {
        log.error({ err: error }, 'delivering failed');
      } finally {
        delivering = undefined;
      }
    })();
  }

  const unsubscribeTier = context.notifications.subscribe('ScrapeTierCompleted', async ({ clusterId }) => {
    if (stopped || !shared.ownership.owns(clusterId)) return;
    const started = performance.now();
    let failed = true;
    try {
      const summary = await evaluateCluster(deps, clusterId);
      failed = false;
      if (summary.transitions > 0) {
        await context.publishSignal('alerts', clusterId);
        await context.publishSignal('alerts', INSTALLATION_SCOPE_ID);
      }
      if (summary.queuedDeliveries > 0) deliver();
    } catch (error) {
      log.error({ err: error, clusterId }, 'evaluating failed');
    } finally {
      counts.note(clusterId, performance.now() - started, failed);
    }
  });
  const unsubscribeRegistered = context.notifications.subscribe('ClusterRegistered', async ({ clusterId, name }) => {
    try {
      await installBuiltInRules(db, clusterId, name);
    } catch (error) {
      log.error({ err: error, clusterId }, 'cannot install the built-in rules');
    }
  });
  const timer = setInterval(deliver, DELIVERY_POLL_MS);
  timer.unref();
  const flushCounts = () =>
    counts.flush(context.pool).catch((error: unknown) => log.warn({ err: error }, 'evaluation counts not written'));
  const countsTimer = setInterval(() => void flushCounts(), COUNTS_FLUSH_MS);
  countsTimer.unref();

  return Promise.resolve({
    async stop() {
      stopped = true;
      unsubscribeTier();
      unsubscribeRegistered();
      forgetLost();
      forgetReleased();
      forgetAnnounced();
      forgetOnReconnect();
      memory.forget();
      clearInterval(timer);
      clearInterval(countsTimer);
      await flushCounts();
      await delivering;
      await shared.detach();
    },
  });
}
