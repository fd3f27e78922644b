// Scrapes one cluster this instance owns: three tiers on their own timers; per tick one management POST per node,
// all nodes at once, each bounded by a timeout, so a slow or dead node never delays another. Each node's result
// is persisted in its own short transaction, and signals go out only when persisted state changed. Ticks of every
// tier publish ScrapeTierCompleted in the order they started. After each tier-C tick one serving node is asked for
// the address settings that name the dead-letter and expiry addresses (dead-letter-settings.ts).
import { INSTALLATION_SCOPE_ID } from '@/modules/kernel/stream/index.ts';
import type { Pool } from 'pg';
import { REMOVED_MEANWHILE_MESSAGE, removedMeanwhile } from './removed-meanwhile.ts';
import type { InternalNotifications } from '@/modules/kernel/core/index.ts';
import type { SettingsReader } from '@/modules/kernel/plugin/index.ts';
import {
  listNodeStates,
  managementLimitsOf,
  ManagementClient,
  ManagementError,
  probeManagementCapabilities,
  type ManagementLimits,
} from '@/modules/platform/broker/index.ts';
import {
  capabilityRecheckIntervalMs,
  recordManagementEvidence,
  recordManagementRecheck,
  recordNodePoll,
  recordNodePollFailure,
  type ManagementFailure,
  type ManagementTargets,
} from '@/modules/platform/clusters/index.ts';
import {
  queueAddressesOf,
  readDeadLetterAddresses,
  recordDeadLetterRead,
  servingNodesOf,
  type DeadLetterRead,
} from './dead-letter-settings.ts';
import {
  describeFailure,
  fetchEveryPage,
  fetchFirstPage,
  fetchHaState,
  readNotificationAddress,
} from './node-fetch.ts';
import { keysOf, removeUnlisted, sampleNodeTotals, upsertQueueRows } from './queue-persist.ts';
import { refreshQueueTotals } from './queue-totals.ts';
import { TIERS, type Tier } from '../read/tiers.ts';
import { SCRAPE_SETTINGS, TIER_INTERVAL_SETTINGS } from './scrape.settings.ts';
import { recordSweep, type SweepOutcome } from './sweep-persist.ts';
import { nextDueAt } from './tick-schedule.ts';
import { inTransaction } from '@/base/db/transaction.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('scrape');

export interface ScraperDependencies {
  readonly pool: Pool;
  readonly instanceId: string;
  readonly settings: SettingsReader;
  readonly notifications: InternalNotifications;
  readonly publishSignal: (topic: string, clusterId: string) => Promise<void>;
}

interface Node {
  readonly nodeId: string;
  readonly label: string;
  readonly client: ManagementClient;
}

/** What one node's tick changed, for the cluster's signals. */
interface NodeOutcome {
  readonly ok: boolean;
  readonly queuesChanged: boolean;
  readonly healthChanged: boolean;
  readonly topologyChanged: boolean;
  /** The classified management error, for the capability ledger (a refused login is not a network fault). */
  readonly failure?: ManagementFailure;
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
  /** Each node's notification address as tier A last read it: its queues stay out of the grid. */
  private readonly notificationAddresses = new Map<string, string>();
  private publications: Promise<void> = Promise.resolve();
  private stopped = false;
  /** When management read and write were last asked of the broker (the scheduled capability recheck). */
  private lastRecheckAt = 0;
  /** Set when stop cut the calls still on their way: their failures are ours, not the broker's, and go unrecorded. */
  private cut = false;
  /** The dead-letter settings read on its way, if any: a tier-C tick meanwhile does not start another. */
  private deadLetterRead: Promise<void> | undefined;

  constructor(
    private readonly dependencies: ScraperDependencies,
    readonly target: ManagementTargets,
    knownTotals: ReadonlyMap<string, number>,
  ) {
    const limits = this.limits();
    this.nodes = target.nodes.map((node) => ({
      nodeId: node.nodeId,
      label: node.label,
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
    return this.dependencies.settings.duration(TIER_INTERVAL_SETTINGS[tier]);
  }

  private limits(): ManagementLimits {
    return managementLimitsOf(this.dependencies.settings);
  }

  /** The tier's next tick, due one interval after the last was due (tick-schedule.ts says why). */
  private arm(tier: Tier, lastDueAt = Date.now()): void {
    clearTimeout(this.timers.get(tier));
    if (this.stopped) return;
    const now = Date.now();
    const dueAt = nextDueAt(lastDueAt, this.intervalMs(tier), now);
    const timer = setTimeout(
      () => {
        this.track(this.runTier(tier));
        this.arm(tier, dueAt);
      },
      Math.max(0, dueAt - now),
    );
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
    if (tier === 'C') this.readDeadLetterSettingsAfter(tick, nodes);
    // Chained at the start of the tick, so completions are announced in the order the ticks began.
    this.publications = this.publications.then(async () => {
      const outcomes = await tick;
      await this.announce(tier, startedAt, nodes, outcomes);
    });
    return this.publications;
  }

  /** Once the tick's listings are persisted (so every queue's address is known), reads the dead-letter settings. */
  private readDeadLetterSettingsAfter(tick: Promise<NodeOutcome[]>, nodes: readonly Node[]): void {
    if (this.deadLetterRead) return;
    const read = tick
      .then((outcomes) => this.readDeadLetterSettings(nodes.filter((_, index) => outcomes[index]?.ok === true)))
      .catch((error: unknown) => {
        log.error({ err: error, cluster: this.target.name }, 'cannot read the dead-letter settings');
      })
      .finally(() => {
        this.deadLetterRead = undefined;
      });
    this.deadLetterRead = read;
    this.track(read);
  }

  /** One serving node that answered the tick (else any that did) is asked; the outcome is recorded either way. */
  private async readDeadLetterSettings(answered: readonly Node[]): Promise<void> {
    if (this.stopped) return;
    const { pool, publishSignal } = this.dependencies;
    const [serving, addresses] = await Promise.all([
      servingNodesOf(pool, this.clusterId),
      queueAddressesOf(pool, this.clusterId),
    ]);
    const node = answered.find((candidate) => serving.has(candidate.nodeId)) ?? answered[0];
    let read: DeadLetterRead;
    if (!node) {
      read = { ok: false, asked: 0, error: 'no node answered the last full sweep, so no address settings were read' };
    } else {
      try {
        read = { ok: true, asked: addresses.length, addresses: await readDeadLetterAddresses(node.client, addresses) };
      } catch (error) {
        if (this.cut) return;
        read = { ok: false, asked: addresses.length, error: `${node.label}: ${describeFailure(error)}` };
      }
    }
    const change = await inTransaction(pool, (client) =>
      recordDeadLetterRead(client, this.clusterId, read, new Date()),
    );
    if (change.marksChanged > 0 || change.statusChanged) await publishSignal('queues', this.clusterId);
  }

  /** Keeps MANAGEMENT_READ/WRITE current from this tick's calls; answers whether a verdict changed. */
  private async recordCapabilityEvidence(nodes: readonly Node[], outcomes: readonly NodeOutcome[]): Promise<boolean> {
    const { pool, settings } = this.dependencies;
    const answered = nodes.filter((_, index) => outcomes[index]?.ok === true);
    const failed = outcomes.flatMap((outcome) => (outcome.failure ? [outcome.failure] : []));
    let changed = await recordManagementEvidence(pool, this.clusterId, {
      answered: answered.map((node) => node.label),
      failed,
    });
    const [asked] = answered;
    if (asked && Date.now() - this.lastRecheckAt >= capabilityRecheckIntervalMs(settings)) {
      this.lastRecheckAt = Date.now();
      const verdicts = await probeManagementCapabilities(asked.client);
      changed = (await recordManagementRecheck(pool, this.clusterId, verdicts)) || changed;
    }
    return changed;
  }

  private async announce(
    tier: Tier,
    startedAt: Date,
    nodes: readonly Node[],
    outcomes: readonly NodeOutcome[],
  ): Promise<void> {
    if (this.cut) return; // a tick cut short by stop did not complete
    const { notifications, publishSignal } = this.dependencies;
    const capabilityChanged = await this.recordCapabilityEvidence(nodes, outcomes).catch((error: unknown) => {
      log.error({ err: error, cluster: this.target.name }, 'cannot record the capability evidence');
      return false;
    });
    const signals = [
      outcomes.some((outcome) => outcome.queuesChanged) && 'queues',
      (capabilityChanged || outcomes.some((outcome) => outcome.healthChanged)) && 'health',
      outcomes.some((outcome) => outcome.topologyChanged) && 'topology',
    ].filter((topic): topic is string => typeof topic === 'string');
    try {
      for (const topic of signals) await publishSignal(topic, this.clusterId);
      // Screens across clusters (the clusters list) follow the installation's stream: tell them a health changed.
      if (signals.includes('health')) await publishSignal('health', INSTALLATION_SCOPE_ID);
      await notifications.publish('ScrapeTierCompleted', {
        clusterId: this.clusterId,
        tier,
        startedAt: startedAt.toISOString(),
        completedAt: new Date().toISOString(),
        nodesScraped: outcomes.filter((outcome) => outcome.ok).length,
        nodesFailed: outcomes.filter((outcome) => !outcome.ok).length,
      });
    } catch (error) {
      log.error({ err: error, cluster: this.target.name, tier }, 'cannot announce the tier');
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
        const outcome = await this.persistFailure(tier, node, { ...sweep, startedAt }, describeFailure(error));
        return error instanceof ManagementError ? { ...outcome, failure: failureOf(node, error) } : outcome;
      }
      const finishedAt = new Date();
      const limiterWaitMs = limiterWaitOf(node.client.nodeKey);
      return await inTransaction(this.dependencies.pool, async (client) => {
        if (fetched.kind === 'ha') {
          const change = await recordNodePoll(client, node.nodeId, finishedAt, fetched.state);
          await recordSweep(client, { ...sweep, startedAt, finishedAt, rowsPersisted: 1, limiterWaitMs });
          return { ok: true, queuesChanged: false, healthChanged: change.health, topologyChanged: change.topology };
        }
        const { listing } = fetched;
        const target = { clusterId: this.clusterId, nodeId: node.nodeId, tier: fetched.kind, listedAt: startedAt };
        const written = await upsertQueueRows(client, target, listing.rows);
        const complete = fetched.kind === 'C' && listing.complete;
        const removed = complete ? await removeUnlisted(client, node.nodeId, startedAt) : 0;
        // A complete listing refreshes every total of the cluster (queues gone from every node leave); a partial
        // one only its own queues'.
        await refreshQueueTotals(client, this.clusterId, complete ? undefined : keysOf(listing.rows));
        await sampleNodeTotals(client, target);
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
      const removed = removedMeanwhile(error);
      if (removed) log.info({ node: node.client.nodeKey, tier, constraint: removed }, REMOVED_MEANWHILE_MESSAGE);
      else log.error({ err: error, node: node.client.nodeKey, tier }, 'cannot persist the tier');
      return FAILED;
    }
  }

  private async fetch(tier: Tier, node: Node) {
    const { settings } = this.dependencies;
    if (tier === 'A') {
      const state = await fetchHaState(node.client);
      if (state.notificationAddress) this.notificationAddresses.set(node.nodeId, state.notificationAddress);
      return { kind: 'ha' as const, state };
    }
    const notificationAddress = await this.notificationAddressOf(node);
    const listing =
      tier === 'B'
        ? await fetchFirstPage(node.client, settings.integer(SCRAPE_SETTINGS.firstPageSize), notificationAddress)
        : await fetchEveryPage(
            node.client,
            settings.integer(SCRAPE_SETTINGS.pageSize),
            this.knownTotals.get(node.nodeId) ?? 0,
            notificationAddress,
          );
    // Tier B's total counts every queue too, so tier C never starts from nothing.
    this.knownTotals.set(node.nodeId, listing.total);
    return { kind: tier, listing };
  }

  /** A listing before tier A answered reads the address itself, so a custom one's queues never slip in. */
  private async notificationAddressOf(node: Node): Promise<string> {
    const known = this.notificationAddresses.get(node.nodeId);
    if (known) return known;
    const read = await readNotificationAddress(node.client);
    if (read) this.notificationAddresses.set(node.nodeId, read);
    return read;
  }

  private async persistFailure(
    tier: Tier,
    node: Node,
    sweep: Omit<SweepOutcome, 'finishedAt' | 'error'>,
    error: string,
  ): Promise<NodeOutcome> {
    const finishedAt = new Date();
    return inTransaction(this.dependencies.pool, async (client) => {
      const change = tier === 'A' ? await recordNodePollFailure(client, node.nodeId, finishedAt, error) : undefined;
      await recordSweep(client, { ...sweep, finishedAt, error });
      return { ...FAILED, healthChanged: change?.health ?? false, topologyChanged: change?.topology ?? false };
    });
  }
}

function failureOf(node: Node, error: ManagementError): ManagementFailure {
  return {
    node: node.label,
    kind: error.kind,
    message: error.message,
    advice: error.advice,
    snippet: error.configSnippet ?? null,
  };
}

function withinGrace(work: Promise<unknown>): Promise<unknown> {
  return Promise.race([work, new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref())]);
}

function limiterWaitOf(nodeKey: string): number | undefined {
  const wait = listNodeStates().find((state) => state.nodeKey === nodeKey)?.limiter?.lastWaitMs;
  return wait === undefined ? undefined : Math.round(wait);
}
