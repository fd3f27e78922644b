// Scrapes one cluster this instance owns: three tiers on their own timers; per tick one management POST per node,
// all nodes at once, each bounded by a timeout, so a slow or dead node never delays another. Each node's result
// is persisted in its own short transaction, and signals go out only when persisted state changed. Ticks of every
// tier publish ScrapeTierCompleted in the order they started.
import type { Pool } from 'pg';
import type { InternalNotifications } from '../../../kernel/core/internal-notifications.ts';
import type { SettingsReader } from '../../../kernel/plugin/descriptor.ts';
import { ManagementClient } from '../../broker/management/management-client.ts';
import { MANAGEMENT_SETTING_KEYS, type ManagementLimits } from '../../broker/management/management.settings.ts';
import { listNodeStates } from '../../broker/management/node-state-registry.ts';
import type { ScrapeTarget } from './cluster-source.ts';
import { persistHaFailure, persistHaPoll } from './ha-persist.ts';
import { describeFailure, fetchEveryPage, fetchFirstPage, fetchHaState } from './node-fetch.ts';
import { removeUnlisted, upsertQueueRows } from './queue-persist.ts';
import { SCRAPE_SETTING_KEYS, TIER_INTERVAL_KEYS, TIERS, type Tier } from './scrape.settings.ts';
import { recordSweep, type SweepOutcome } from './sweep-persist.ts';
import { inTransaction } from '@/server/db/transaction.ts';

export interface ScraperDependencies {
  readonly pool: Pool;
  readonly instanceId: string;
  readonly settings: SettingsReader;
  readonly notifications: InternalNotifications;
  readonly publishSignal: (topic: string, clusterId: string) => Promise<void>;
}

interface Node {
  readonly nodeId: string;
  readonly client: ManagementClient;
}

/** What one node's tick changed, for the cluster's signals. */
interface NodeOutcome {
  readonly ok: boolean;
  readonly queuesChanged: boolean;
  readonly healthChanged: boolean;
  readonly topologyChanged: boolean;
}

const FAILED: NodeOutcome = { ok: false, queuesChanged: false, healthChanged: false, topologyChanged: false };
/** Beyond the management timeout, how long a node's tick may take before the tick stops waiting for it. */
const TIMEOUT_SLACK_MS = 2_000;
/** At stop, how long calls on their way may finish (and be persisted) before their connections are cut. */
const STOP_GRACE_MS = 5_000;

export class ClusterScraper {
  private readonly nodes: Node[];
  private readonly timers = new Map<Tier, NodeJS.Timeout>();
  /** `${tier}:${nodeId}` of node calls still on their way; such a node sits out the next ticks of that tier. */
  private readonly inFlight = new Set<string>();
  private readonly ticks = new Set<Promise<unknown>>();
  /** Node calls and their persisting, including those a tick stopped waiting for. */
  private readonly nodeWork = new Set<Promise<unknown>>();
  /** The largest queue listing each node reported lately: tier C sizes its one POST from it. */
  private readonly knownTotals = new Map<string, number>();
  private publications: Promise<void> = Promise.resolve();
  private stopped = false;
  /** Set when stop cut the calls still on their way: their failures are ours, not the broker's, and go unrecorded. */
  private cut = false;

  constructor(
    private readonly dependencies: ScraperDependencies,
    readonly target: ScrapeTarget,
    knownTotals: ReadonlyMap<string, number>,
  ) {
    const limits = this.limits();
    this.nodes = target.nodes.map((node) => ({
      nodeId: node.nodeId,
      client: new ManagementClient(node.endpoint, limits),
    }));
    for (const [nodeId, total] of knownTotals) this.knownTotals.set(nodeId, total);
  }

  get clusterId(): string {
    return this.target.clusterId;
  }

  /** Tiers A and B at once, tier C right after the first B (which tells it how long the listing is). */
  start(): void {
    this.track(this.runTier('A'));
    this.track(this.runTier('B').then(() => (this.stopped ? undefined : this.runTier('C'))));
    for (const tier of TIERS) this.arm(tier);
  }

  /** Re-reads the tier intervals (a setting changed). */
  retime(): void {
    for (const tier of TIERS) this.arm(tier);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    // Calls on their way finish and are persisted (cutting them would record a failure the broker never had).
    await withinGrace(Promise.allSettled([...this.nodeWork, ...this.ticks]));
    this.cut = true;
    for (const node of this.nodes) node.client.close();
    await withinGrace(Promise.allSettled([...this.nodeWork, this.publications]));
  }

  private intervalMs(tier: Tier): number {
    return this.dependencies.settings.duration(TIER_INTERVAL_KEYS[tier]);
  }

  private limits(): ManagementLimits {
    const { settings } = this.dependencies;
    return {
      maxConcurrentCalls: settings.integer(MANAGEMENT_SETTING_KEYS.maxConcurrentCalls),
      maxCallsPerSecond: settings.integer(MANAGEMENT_SETTING_KEYS.maxCallsPerSecond),
      timeoutMs: settings.duration(MANAGEMENT_SETTING_KEYS.timeout),
    };
  }

  private arm(tier: Tier): void {
    clearTimeout(this.timers.get(tier));
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.track(this.runTier(tier));
      this.arm(tier);
    }, this.intervalMs(tier));
    timer.unref();
    this.timers.set(tier, timer);
  }

  private track(tick: Promise<unknown>): void {
    this.ticks.add(tick);
    void tick.finally(() => this.ticks.delete(tick));
  }

  /** One tick of a tier over every node; resolves when the tick's notification is published. */
  runTier(tier: Tier): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const startedAt = new Date();
    const nodes = this.nodes.filter((node) => !this.inFlight.has(`${tier}:${node.nodeId}`));
    const tick = Promise.all(nodes.map((node) => this.scrapeNode(tier, node)));
    // Chained at the start of the tick, so completions are announced in the order the ticks began.
    this.publications = this.publications.then(async () => {
      const outcomes = await tick;
      await this.announce(tier, startedAt, outcomes);
    });
    return this.publications;
  }

  private async announce(tier: Tier, startedAt: Date, outcomes: readonly NodeOutcome[]): Promise<void> {
    if (this.cut) return; // a tick cut short by stop did not complete
    const { notifications, publishSignal } = this.dependencies;
    const signals = [
      outcomes.some((outcome) => outcome.queuesChanged) && 'queues',
      outcomes.some((outcome) => outcome.healthChanged) && 'health',
      outcomes.some((outcome) => outcome.topologyChanged) && 'topology',
    ].filter((topic): topic is string => typeof topic === 'string');
    try {
      for (const topic of signals) await publishSignal(topic, this.clusterId);
      await notifications.publish('ScrapeTierCompleted', {
        clusterId: this.clusterId,
        tier,
        startedAt: startedAt.toISOString(),
        completedAt: new Date().toISOString(),
        nodesScraped: outcomes.filter((outcome) => outcome.ok).length,
        nodesFailed: outcomes.filter((outcome) => !outcome.ok).length,
      });
    } catch (error) {
      console.error(`[scrape] announcing tier ${tier} of ${this.target.name}:`, error);
    }
  }

  private async scrapeNode(tier: Tier, node: Node): Promise<NodeOutcome> {
    const key = `${tier}:${node.nodeId}`;
    this.inFlight.add(key);
    const work = this.fetchAndPersist(tier, node).finally(() => {
      this.inFlight.delete(key);
      this.nodeWork.delete(work);
    });
    this.nodeWork.add(work);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<NodeOutcome>((resolve) => {
      timer = setTimeout(() => resolve(FAILED), this.limits().timeoutMs + TIMEOUT_SLACK_MS);
      timer.unref();
    });
    try {
      return await Promise.race([work, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async fetchAndPersist(tier: Tier, node: Node): Promise<NodeOutcome> {
    const startedAt = new Date();
    const sweep = {
      clusterId: this.clusterId,
      nodeId: node.nodeId,
      tier,
      instanceId: this.dependencies.instanceId,
      intervalMs: this.intervalMs(tier),
    };
    try {
      let fetched: Awaited<ReturnType<ClusterScraper['fetch']>>;
      try {
        fetched = await this.fetch(tier, node);
      } catch (error) {
        if (this.cut) return FAILED;
        return await this.persistFailure(tier, node, { ...sweep, startedAt }, describeFailure(error));
      }
      const finishedAt = new Date();
      const limiterWaitMs = limiterWaitOf(node.client.nodeKey);
      return await inTransaction(this.dependencies.pool, async (client) => {
        if (fetched.kind === 'ha') {
          const change = await persistHaPoll(client, node.nodeId, finishedAt, fetched.state);
          await recordSweep(client, { ...sweep, startedAt, finishedAt, rowsPersisted: 1, limiterWaitMs });
          return { ok: true, queuesChanged: false, healthChanged: change.health, topologyChanged: change.topology };
        }
        const { listing } = fetched;
        const target = { clusterId: this.clusterId, nodeId: node.nodeId, tier: fetched.kind, listedAt: startedAt };
        const written = await upsertQueueRows(client, target, listing.rows);
        const removed =
          fetched.kind === 'C' && listing.complete ? await removeUnlisted(client, node.nodeId, startedAt) : 0;
        const incomplete =
          fetched.kind === 'C' && !listing.complete
            ? `incomplete listing: ${listing.rows.length} of ${listing.total} queues read; nothing removed, the next sweep asks for more pages`
            : undefined;
        await recordSweep(client, {
          ...sweep,
          startedAt,
          finishedAt,
          rowsPersisted: written.upserted,
          listedTotal: listing.total,
          limiterWaitMs,
          ...(incomplete ? { error: incomplete } : {}),
        });
        return { ok: true, queuesChanged: written.changed + removed > 0, healthChanged: false, topologyChanged: false };
      });
    } catch (error) {
      console.error(`[scrape] persisting tier ${tier} of ${node.client.nodeKey}:`, error);
      return FAILED;
    }
  }

  private async fetch(tier: Tier, node: Node) {
    const { settings } = this.dependencies;
    if (tier === 'A') return { kind: 'ha' as const, state: await fetchHaState(node.client) };
    const listing =
      tier === 'B'
        ? await fetchFirstPage(node.client, settings.integer(SCRAPE_SETTING_KEYS.firstPageSize))
        : await fetchEveryPage(
            node.client,
            settings.integer(SCRAPE_SETTING_KEYS.pageSize),
            this.knownTotals.get(node.nodeId) ?? 0,
          );
    // Tier B's total counts every queue too, so tier C never starts from nothing.
    this.knownTotals.set(node.nodeId, listing.total);
    return { kind: tier, listing };
  }

  private async persistFailure(
    tier: Tier,
    node: Node,
    sweep: Omit<SweepOutcome, 'finishedAt' | 'error'>,
    error: string,
  ): Promise<NodeOutcome> {
    const finishedAt = new Date();
    return inTransaction(this.dependencies.pool, async (client) => {
      const change = tier === 'A' ? await persistHaFailure(client, node.nodeId, finishedAt, error) : undefined;
      await recordSweep(client, { ...sweep, finishedAt, error });
      return { ...FAILED, healthChanged: change?.health ?? false, topologyChanged: change?.topology ?? false };
    });
  }
}

function withinGrace(work: Promise<unknown>): Promise<unknown> {
  return Promise.race([work, new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
}

function limiterWaitOf(nodeKey: string): number | undefined {
  const wait = listNodeStates().find((state) => state.nodeKey === nodeKey)?.limiter?.lastWaitMs;
  return wait === undefined ? undefined : Math.round(wait);
}
