// The scrape worker service. Every ownership tick (the tier-A interval) it lists the clusters, claims free ones up to
// its fair share of them among the live workers of every instance (fair-share.ts; the clusters module's ownership:
// one instance scrapes a cluster, and the same instance reconciles its HA) and starts a ClusterScraper for each it
// gets; clusters that are gone are stopped and released. ClusterRegistered and ClusterChanged make it look again at once (and re-read a changed
// cluster it owns). Interval settings re-time every scraper when they change. When the ownership's lock connection
// breaks (a database restart), every cluster is given up and claimed again as soon as the database answers, not at
// the next tier-A pass.
import type { RunningWorkerService, WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import { ClusterScraper } from './cluster-scraper.ts';
import { clusterOwnershipOf, listClusterIds, loadManagementTargets } from '@/modules/platform/clusters/index.ts';
import { countLiveWorkers } from '@/modules/platform/broker/index.ts';
import { decideOwnership } from './fair-share.ts';
import { makePartitionsAhead } from './partition-maintenance.ts';
import { refreshQueueTotals } from './queue-totals.ts';
import { inTransaction } from '@/base/db/transaction.ts';
import { TIERS } from '../read/tiers.ts';
import { SCRAPE_SETTINGS, TIER_INTERVAL_SETTINGS } from './scrape.settings.ts';
import { logger, withLogContext } from '@/base/log/log.ts';
import { reconnectDelay } from '@/base/backoff.ts';

const log = logger('scrape');
const RECLAIM = { initialDelayMs: 500, maxDelayMs: 10_000 };

export class ScrapeService implements RunningWorkerService {
  private readonly scrapers = new Map<string, ClusterScraper>();
  private readonly shared: ReturnType<typeof clusterOwnershipOf>;
  private readonly stopFollowing: () => void;
  private readonly unsubscribe: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;
  private reclaimTimer: NodeJS.Timeout | undefined;
  private reclaimAttempt = 0;
  private pass: Promise<void> = Promise.resolve();
  private readonly reported = new Map<string, string>();
  /** Fair share (fair-share.ts): the clusters nobody owned at the last pass, and the passes this one was over it. */
  private freeLastPass: ReadonlySet<string> = new Set();
  private overSharePasses = 0;
  private stopped = false;

  constructor(private readonly context: WorkerServiceContext) {
    this.shared = clusterOwnershipOf(context.pool);
    this.stopFollowing = this.shared.ownership.onLost(() => {
      void this.giveUpAll();
      this.reclaimAttempt = 0;
      this.reclaimSoon();
    });
  }

  async start(): Promise<void> {
    await makePartitionsAhead((sql) => this.context.pool.query(sql));
    const { notifications, settings } = this.context;
    this.unsubscribe.push(
      notifications.subscribe('ClusterRegistered', () => void this.schedulePass()),
      notifications.subscribe('ClusterChanged', ({ clusterId }) => this.reload(clusterId)),
      notifications.subscribe('ClusterServingChanged', ({ clusterId }) => this.recountTotals(clusterId)),
    );
    for (const tier of TIERS) {
      this.unsubscribe.push(
        settings.onChange(TIER_INTERVAL_SETTINGS[tier].key, () => {
          for (const scraper of this.scrapers.values()) scraper.retime();
          if (tier === 'A') this.arm();
        }),
      );
    }
    void this.schedulePass();
    this.arm();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.reclaimTimer);
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    await this.pass.catch(() => undefined);
    await Promise.all([...this.scrapers.values()].map((scraper) => scraper.stop()));
    this.scrapers.clear();
    this.stopFollowing();
    await this.shared.detach();
  }

  /** Another member of a pair serves: the cluster's queue totals now count its cells (only where scraped). */
  private async recountTotals(clusterId: string): Promise<void> {
    if (this.stopped || !this.scrapers.has(clusterId)) return;
    try {
      await inTransaction(this.context.pool, (client) => refreshQueueTotals(client, clusterId));
      await this.context.publishSignal('queues', clusterId);
    } catch (error) {
      log.error({ err: error, clusterId }, 'cannot recount the queue totals');
    }
  }

  /** Clusters this instance scrapes now (for tests and health). */
  ownedClusters(): string[] {
    return [...this.scrapers.keys()];
  }

  private arm(): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.schedulePass();
      this.arm();
    }, this.context.settings.duration(SCRAPE_SETTINGS.tierA));
    this.timer.unref();
  }

  /** A pass after the lock connection broke, retried with backoff until the database answers it. */
  private reclaimSoon(): void {
    clearTimeout(this.reclaimTimer);
    if (this.stopped) return;
    this.reclaimTimer = setTimeout(
      () => {
        this.pass = this.pass
          .then(() => (this.stopped ? undefined : this.ownershipPass()))
          .then(
            () => {
              this.reclaimAttempt = 0;
            },
            (error: unknown) => {
              log.warn({ err: error }, 'cannot claim the clusters again yet (the lock connection broke)');
              this.reclaimSoon();
            },
          );
      },
      reconnectDelay(RECLAIM, this.reclaimAttempt++),
    );
    this.reclaimTimer.unref();
  }

  /** Passes run one after another, never overlapping. */
  private schedulePass(): Promise<void> {
    this.pass = this.pass
      .then(() => (this.stopped ? undefined : this.ownershipPass()))
      .catch((error: unknown) => log.error({ err: error }, 'ownership pass failed'));
    return this.pass;
  }

  private async ownershipPass(): Promise<void> {
    const present = new Set(await listClusterIds(this.context.prisma));
    for (const clusterId of this.scrapers.keys()) if (!present.has(clusterId)) await this.giveUp(clusterId);
    for (const clusterId of this.reported.keys()) if (!present.has(clusterId)) this.reported.delete(clusterId);
    const unowned = await this.shared.ownership.unowned([...present].filter((id) => !this.scrapers.has(id)));
    const decided = decideOwnership({
      owned: [...this.scrapers.keys()],
      unowned,
      freeLastPass: this.freeLastPass,
      clusters: present.size,
      liveWorkers: await countLiveWorkers(this.context.pool),
      overSharePasses: this.overSharePasses,
    });
    this.freeLastPass = new Set(unowned);
    this.overSharePasses = decided.overSharePasses;
    for (const clusterId of decided.handBack) {
      log.info({ clusterId }, 'handing the cluster to another worker (this one is over its fair share)');
      await this.giveUp(clusterId);
    }
    for (const clusterId of decided.claim) {
      if (this.stopped) return;
      if (this.scrapers.has(clusterId) || !(await this.shared.ownership.claim(clusterId))) continue;
      await this.begin(clusterId);
    }
  }

  private async begin(clusterId: string): Promise<void> {
    try {
      const target = await loadManagementTargets(this.context.prisma, clusterId);
      if (!target) {
        await this.shared.ownership.release(clusterId);
        return;
      }
      const scraper = new ClusterScraper(this.context, target, await this.knownTotals(clusterId));
      this.scrapers.set(clusterId, scraper);
      this.reported.delete(clusterId);
      // Every line of this cluster's scrape (its timers inherit the context) names the cluster.
      withLogContext({ clusterId }, () => scraper.start());
      log.info(
        { clusterId, cluster: target.name, nodes: target.nodes.length },
        `scraping cluster ${target.name} (${target.nodes.length} nodes)`,
      );
    } catch (error) {
      // Unreadable credentials, say: give the lock back and try again next pass, reporting each reason once.
      await this.shared.ownership.release(clusterId);
      const reason = error instanceof Error ? error.message : String(error);
      if (this.reported.get(clusterId) !== reason) log.error({ clusterId, reason }, 'cannot scrape the cluster');
      this.reported.set(clusterId, reason);
    }
  }

  /** The last listing totals recorded by whichever instance scraped the cluster before. */
  private async knownTotals(clusterId: string): Promise<Map<string, number>> {
    const rows = await this.context.pool.query<{ node_id: string; total: number | null }>(
      'SELECT node_id, max(listed_total)::int AS total FROM scrape_sweep WHERE cluster_id = $1 GROUP BY node_id',
      [clusterId],
    );
    return new Map(rows.rows.map((row) => [row.node_id, row.total ?? 0]));
  }

  private async giveUp(clusterId: string): Promise<void> {
    const scraper = this.scrapers.get(clusterId);
    this.scrapers.delete(clusterId);
    await scraper?.stop();
    await this.shared.ownership.release(clusterId).catch(() => undefined);
  }

  private async giveUpAll(): Promise<void> {
    const scrapers = [...this.scrapers.values()];
    this.scrapers.clear();
    await Promise.all(scrapers.map((scraper) => scraper.stop()));
  }

  /** A cluster's nodes, credentials or TLS changed: the owner re-reads it; a removal stops it. */
  private reload(clusterId: string): Promise<void> {
    this.pass = this.pass
      .then(async () => {
        if (!this.scrapers.has(clusterId)) return;
        await this.scrapers.get(clusterId)?.stop();
        this.scrapers.delete(clusterId);
        await this.begin(clusterId);
      })
      .catch((error: unknown) => log.error({ err: error, clusterId }, 'cannot re-read the cluster'));
    return this.pass;
  }
}

export async function start(context: WorkerServiceContext): Promise<RunningWorkerService> {
  const service = new ScrapeService(context);
  await service.start();
  return service;
}
