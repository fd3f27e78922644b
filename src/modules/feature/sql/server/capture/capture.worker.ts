// The capture worker service (stage `subscriptions`: stopped after the scrape, before the native pools). It owns this
// worker's capture reconciler and consumers and the index writer they feed. The reconcile job
// (sql.capture-reconcile) runs its passes on the clusters this worker owns (the scrape claims them, ha.worker.ts
// follows the same ownership), and a pass runs within a second when a cluster's serving node changes (a failover), a
// consumer loses its tap (a broker restart took the non-durable queue) or this worker comes to own a cluster (its
// start, or a cluster taken over from a worker that stopped or died: the copies wait in the taps meanwhile); after
// each pass the consumers follow the live taps. A cluster this worker gives up has its consumers closed at once (its
// taps stay on the brokers for the next owner), and consumers are only ever open on clusters this worker owns: a
// pass that ends after its cluster was given up opens none, and a check every second closes any left behind.
import type { RunningWorkerService, WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import { clusterOwnershipOf } from '@/modules/platform/clusters/index.ts';
import { indexWriterOf } from '../index/index-writer-of.ts';
import { CaptureBus, listenersOf } from './capture-bus.ts';
import { CaptureConsumers } from './capture-consumers.ts';
import { CaptureReconciler, type CapturePassOutcome } from './capture-reconciler.ts';
import { registerCaptureRuntime } from './capture-runtime.ts';
import { loadDeploymentId } from './deployment-id.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('sql');

const PASS_SOON_MS = 1_000;
/** How often the consumers open are compared with the clusters owned (a release may land while a pass opens them). */
const OWNERSHIP_CHECK_MS = 1_000;
// Waits of 1, 2, 4, 8 and 16 s: by the last the job's default interval (15 s) has passed.
const PASS_SOON_RETRIES = 4;

export async function start(context: WorkerServiceContext): Promise<RunningWorkerService> {
  const deploymentId = await loadDeploymentId(context.pool);
  const shared = clusterOwnershipOf(context.pool);
  const writer = indexWriterOf(context);
  const reconciler = new CaptureReconciler({
    prisma: context.prisma,
    pool: context.pool,
    settings: context.settings,
    deploymentId,
    // The consumers are made below; a pass runs only after both exist.
    beforeRemove: (nodeId, queue) => consumers.closeTap(nodeId, queue),
  });
  let chain: Promise<unknown> = Promise.resolve();
  let stopped = false;
  // A pass soon, at most one at a time however many consumers lose their taps (one broker restart takes every tap of
  // the node at once). A pass that could not reach a node (a restarted broker answers AMQP before management) is
  // tried again, a little later each time, until one reaches every node or the job's own interval takes over.
  let passSoon: NodeJS.Timeout | undefined;
  const requestPass = (why: string, attempt = 0) => {
    if (passSoon || stopped) return;
    passSoon = setTimeout(
      () => {
        passSoon = undefined;
        reconcileOwned().then(
          (outcomes) => {
            // A cluster still held by another worker's pass (its owner until a moment ago) is tried again too.
            const again = outcomes.some((outcome) => outcome.failed > 0 || outcome.skipped === 'locked');
            if (again && attempt < PASS_SOON_RETRIES) requestPass(why, attempt + 1);
          },
          (error: unknown) => {
            log.error({ err: error, after: why }, 'capture pass failed');
            if (attempt < PASS_SOON_RETRIES) requestPass(why, attempt + 1);
          },
        );
      },
      PASS_SOON_MS * 2 ** attempt,
    );
  };
  const consumers = new CaptureConsumers(new CaptureBus(writer, listenersOf(context.registry)), () =>
    requestPass('a consumer lost its tap'),
  );
  const reconcileOwned = (): Promise<CapturePassOutcome[]> => {
    const run = chain.then(async () => {
      const outcomes: CapturePassOutcome[] = [];
      for (const clusterId of shared.ownership.owned()) {
        const outcome = await reconciler.pass(clusterId);
        // Given up while the pass ran (handed back, its lock session lost): the next owner drains the taps.
        if (!shared.ownership.owns(clusterId)) await consumers.closeCluster(clusterId);
        else if (outcome.skipped === 'gone') await consumers.closeCluster(clusterId);
        // A pass that could not run says nothing of the taps: the consumers open stay until one that does.
        else if (!outcome.skipped && outcome.error === undefined) await consumers.sync(clusterId, outcome.live);
        outcomes.push(outcome);
      }
      return outcomes;
    });
    chain = run.catch(() => undefined);
    return run;
  };
  const unregister = registerCaptureRuntime({ reconcileOwned });
  const followOwnership = setInterval(() => {
    const owned = new Set(shared.ownership.owned());
    for (const clusterId of consumers.clusters()) if (!owned.has(clusterId)) void consumers.closeCluster(clusterId);
  }, OWNERSHIP_CHECK_MS);
  followOwnership.unref();
  const stopFollowing = [
    // A promoted backup holds no tap until a pass installs one, and copies routed there meanwhile have nowhere to
    // go: a change of serving node starts a pass at once instead of at the job's next interval.
    context.notifications.subscribe('ClusterServingChanged', () => requestPass('a serving change')),
    // A cluster this worker comes to own (another worker stopped or died): its taps' copies wait until a pass.
    shared.ownership.onClaim(() => requestPass('a cluster newly owned')),
    shared.ownership.onRelease((clusterId) => void consumers.closeCluster(clusterId)),
    shared.ownership.onLost((lost) => {
      for (const clusterId of lost) void consumers.closeCluster(clusterId);
    }),
  ];
  // Clusters the scrape claimed before this service started.
  if (shared.ownership.owned().length > 0) requestPass('a cluster newly owned');
  return {
    async stop() {
      stopped = true;
      clearTimeout(passSoon);
      clearInterval(followOwnership);
      unregister();
      for (const stop of stopFollowing) stop();
      await chain;
      // Unsettled messages go back to the capture queues when the links close: nothing acknowledged is unwritten.
      await consumers.closeAll();
      await writer.stop();
      await shared.detach();
    },
  };
}
