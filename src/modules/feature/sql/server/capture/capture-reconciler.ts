// The capture reconciler (spec: Capture reconciliation). Desired: the cluster's CAPTURE subscriptions. Actual: each
// serving node's diverts and capture queues whose names carry this deployment's id (tap-names.ts; each node's tap has
// its own name), and whether each tap's queue is there (a non-durable queue is gone after a broker restart while its
// divert, persisted by the broker, comes back). One idempotent pass installs what is missing (after the preflight),
// brings a tap's bounds to the current settings, removes what is not desired, and leaves everything else alone, so it
// acts on drift only; a promoted backup is a serving node without the divert, so the next pass installs it there.
// Held under a per-cluster advisory lock so two instances never reconcile one cluster at once; every broker call goes
// through the node's ManagementClient (its limiter), every write is audited first (apply-taps.ts). What each
// subscription came to is written back to sql_subscription (state, last_error).
import type { Pool } from 'pg';
import { tryLockSession, unlockSession } from '@/base/advisory-lock.ts';
import type { PrismaClient } from '@/base/db/database.ts';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import type { SettingsReader } from '@/modules/kernel/plugin/index.ts';
import {
  managementLimitsOf,
  readCaptureSecurity,
  readTapInventory,
  readTapShape,
  type DivertInfo,
  type NativeEndpoint,
  type TapNames,
} from '@/modules/platform/broker/index.ts';
import { loadCommandTargets, managementClientFor } from '@/modules/platform/clusters/index.ts';
import { SQL_SETTINGS } from '../sql.settings.ts';
import { installTap, recordRefusal, removeTap, reshapeTap, type TapNode } from './apply-taps.ts';
import { refuseExclusiveDivert, refuseUnrestrictedQueue } from './preflight.ts';
import {
  captureAddressProblem,
  nodeSegmentOf,
  ownTapOf,
  ownTapOfQueue,
  ownTapPrefix,
  tapNamesOf,
} from './tap-names.ts';
import { logger } from '@/base/log/log.ts';

const captureLog = logger('sql');

export interface CaptureReconcilerDependencies {
  readonly prisma: PrismaClient;
  readonly pool: Pool;
  readonly settings: SettingsReader;
  readonly deploymentId: string;
  readonly log?: (message: string) => void;
  /**
   * Called before a tap's queue is destroyed: the process draining it closes its consumer first, so the broker does
   * not detach a link that is still taking messages (its writes finish, and nothing reports a lost tap).
   */
  readonly beforeRemove?: (nodeId: string, queue: string) => Promise<void>;
}

/** A tap installed and complete on a serving node: what the capture consumers drain. */
export interface LiveTap {
  readonly clusterId: string;
  readonly subscriptionId: string;
  readonly address: string;
  readonly queue: string;
  readonly nodeId: string;
  readonly nodeName: string;
  readonly native: () => NativeEndpoint;
  /** Installed (or its queue made again) by this pass: a consumer attached before has lost its queue. */
  readonly installed: boolean;
  /** The tap address's expiry delay: the expiration the broker gives a copy of a message that had none. */
  readonly expiryDelayMs: number;
}

export interface CapturePassOutcome {
  readonly clusterId: string;
  /** Why nothing was done: another instance holds the cluster's lock, or the cluster is gone. */
  readonly skipped?: 'locked' | 'gone';
  readonly installed: number;
  /** Taps in place whose bounds (ring size, expiry delay) were brought to the current settings. */
  readonly updated: number;
  readonly removed: number;
  readonly refused: number;
  readonly failed: number;
  readonly live: readonly LiveTap[];
  /** Why the pass could not run at all (the cluster's credentials unreadable, say); counted as one failure. */
  readonly error?: string;
}

interface Subscription {
  readonly id: string;
  readonly address: string;
  readonly state: string;
  readonly lastError: string | null;
}

/** What one subscription came to on every node of the pass; the first problem wins. */
interface Verdict {
  problem?: { readonly message: string; readonly refusal: boolean };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function refusalText(error: ProblemError): string {
  const snippet = typeof error.problem.configSnippet === 'string' ? `\n${error.problem.configSnippet}` : '';
  return `${error.problem.detail ?? error.problem.title}${snippet}`;
}

export class CaptureReconciler {
  private readonly log: (message: string) => void;

  constructor(private readonly dependencies: CaptureReconcilerDependencies) {
    this.log = dependencies.log ?? ((message) => captureLog.error(message));
  }

  async pass(clusterId: string): Promise<CapturePassOutcome> {
    const lockClient = await this.dependencies.pool.connect();
    try {
      if (!(await tryLockSession(lockClient, 'sql.capture', clusterId)))
        return { clusterId, skipped: 'locked', installed: 0, updated: 0, removed: 0, refused: 0, failed: 0, live: [] };
      try {
        return await this.locked(clusterId);
      } catch (error) {
        // One cluster's pass that cannot run is that cluster's failure: the worker's passes over the other clusters
        // it owns go on (a cluster claimed for a moment while its credentials turn out unreadable, say).
        this.log(`the capture pass of cluster ${clusterId} could not run: ${messageOf(error)}`);
        const empty = { installed: 0, updated: 0, removed: 0, refused: 0, live: [] };
        return { clusterId, ...empty, failed: 1, error: messageOf(error) };
      } finally {
        await unlockSession(lockClient, 'sql.capture', clusterId);
      }
    } finally {
      lockClient.release();
    }
  }

  private async locked(clusterId: string): Promise<CapturePassOutcome> {
    const { prisma, settings, deploymentId } = this.dependencies;
    const targets = await loadCommandTargets(prisma, clusterId);
    if (!targets)
      return { clusterId, skipped: 'gone', installed: 0, updated: 0, removed: 0, refused: 0, failed: 0, live: [] };
    const subscriptions: Subscription[] = await prisma.sqlSubscription.findMany({
      where: { clusterId, mode: 'CAPTURE' },
      select: { id: true, address: true, state: true, lastError: true },
      orderBy: { createdAt: 'asc' },
    });
    const verdicts = new Map<string, Verdict>(subscriptions.map((subscription) => [subscription.id, {}]));
    // The taps of this installation's other clusters: one broker registered in two clusters (or moved between them)
    // carries both clusters' taps under this deployment's prefix, and each cluster's pass removes only its own.
    const othersTaps = (
      await prisma.sqlSubscription.findMany({
        where: { clusterId: { not: clusterId }, mode: 'CAPTURE' },
        select: { id: true, address: true },
      })
    ).map((other) => `${tapNamesOf(deploymentId, other.address, other.id).queue}.`);
    const anotherClusters = (tap: TapNames) => othersTaps.some((prefix) => tap.queue.startsWith(prefix));
    const limits = managementLimitsOf(settings);
    const shape = {
      ringSize: settings.integer(SQL_SETTINGS.captureRingSize),
      expiryDelayMs: settings.duration(SQL_SETTINGS.captureExpiryDelay),
    };
    const counts = { installed: 0, updated: 0, removed: 0, refused: 0, failed: 0 };
    if (targets.targets.length === 0)
      for (const verdict of verdicts.values())
        verdict.problem = { message: 'no node of the cluster is serving: nothing can be tapped', refusal: false };
    const live: LiveTap[] = [];
    const newRefusals: Array<{ node: TapNode; subscription: Subscription; queue: string; message: string }> = [];
    for (const target of targets.targets) {
      const node: TapNode = {
        clusterId,
        clusterName: targets.clusterName,
        nodeId: target.nodeId,
        nodeName: target.nodeName,
        client: managementClientFor(target.nodeId, target.endpoint, limits),
      };
      let diverts: DivertInfo[];
      let tapQueues: string[];
      try {
        ({ diverts, queues: tapQueues } = await readTapInventory(node.client, ownTapPrefix(deploymentId)));
      } catch (error) {
        for (const verdict of verdicts.values())
          verdict.problem ??= { message: `${node.nodeName}: ${messageOf(error)}`, refusal: false };
        counts.failed += 1;
        continue;
      }
      const own = new Map<string, TapNames>();
      for (const divert of diverts) {
        const tap = ownTapOf(deploymentId, divert);
        if (tap) own.set(tap.divert, tap);
      }
      const listedQueues = new Set(tapQueues);
      // A capture queue whose divert is gone (an install or a removal cut off half-way) is the tap's too: removed
      // when its subscription is gone, given its divert again when it is not.
      const queueOnly = new Map<string, TapNames>();
      for (const queue of tapQueues) {
        const tap = ownTapOfQueue(deploymentId, queue);
        if (tap && !own.has(tap.divert)) queueOnly.set(tap.divert, tap);
      }
      const desired = new Set<string>();
      for (const subscription of subscriptions) {
        const verdict = verdicts.get(subscription.id) ?? {};
        const addressProblem = captureAddressProblem(subscription.address);
        if (addressProblem) {
          verdict.problem ??= { message: addressProblem, refusal: true };
          continue;
        }
        const names = tapNamesOf(
          deploymentId,
          subscription.address,
          subscription.id,
          nodeSegmentOf(target.logicalNode),
        );
        desired.add(names.divert);
        try {
          const divertPresent = own.has(names.divert);
          // The inventory already says whether the queue is there; its bounds are read only for a tap in place.
          const inPlace = divertPresent && listedQueues.has(names.queue);
          const current = inPlace ? await readTapShape(node.client, names.queue) : undefined;
          const complete = current !== undefined;
          const spec = { queue: names.queue, divert: names.divert, sourceAddress: subscription.address, ...shape };
          if (current && (current.ringSize !== shape.ringSize || current.expiryDelayMs !== shape.expiryDelayMs)) {
            // sql.capture.ring-size or .expiry-delay changed since the tap was installed.
            await reshapeTap(prisma, node, spec, subscription.id, current);
            counts.updated += 1;
          }
          if (!complete) {
            refuseExclusiveDivert(subscription.address, diverts);
            refuseUnrestrictedQueue(
              subscription.address,
              names.match,
              await readCaptureSecurity(node.client, subscription.address, names.queue),
            );
            await installTap(prisma, node, spec, subscription.id, divertPresent);
            counts.installed += 1;
          }
          live.push({
            clusterId,
            subscriptionId: subscription.id,
            address: subscription.address,
            queue: names.queue,
            nodeId: node.nodeId,
            nodeName: node.nodeName,
            native: target.native,
            installed: !complete,
            expiryDelayMs: shape.expiryDelayMs,
          });
        } catch (error) {
          const refusal = error instanceof ProblemError;
          const message = refusal ? refusalText(error) : `${node.nodeName}: ${messageOf(error)}`;
          if (refusal) counts.refused += 1;
          else counts.failed += 1;
          if (refusal && !verdict.problem && subscription.lastError !== message)
            newRefusals.push({ node, subscription, queue: names.queue, message });
          verdict.problem ??= { message, refusal };
        }
      }
      for (const [divert, tap] of [...own, ...queueOnly]) {
        if (desired.has(divert) || anotherClusters(tap)) continue;
        try {
          await this.dependencies.beforeRemove?.(node.nodeId, tap.queue);
          await removeTap(prisma, node, tap);
          counts.removed += 1;
        } catch (error) {
          counts.failed += 1;
          this.log(`could not remove ${tap.queue} from ${node.nodeName}: ${messageOf(error)}`);
        }
      }
    }
    for (const refusal of newRefusals)
      await recordRefusal(prisma, refusal.node, refusal.queue, refusal.subscription.id, refusal.message);
    await this.writeBack(subscriptions, verdicts);
    return { clusterId, ...counts, live };
  }

  /** State and last_error of each subscription, written only when they changed. */
  private async writeBack(subscriptions: readonly Subscription[], verdicts: Map<string, Verdict>): Promise<void> {
    for (const subscription of subscriptions) {
      const problem = verdicts.get(subscription.id)?.problem;
      const state = problem ? 'FAILED' : 'ACTIVE';
      const lastError = problem?.message ?? null;
      if (subscription.state === state && subscription.lastError === lastError) continue;
      await this.dependencies.prisma.sqlSubscription.updateMany({
        where: { id: subscription.id },
        data: { state, lastError, stateChangedAt: new Date() },
      });
    }
  }
}
