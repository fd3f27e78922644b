// The correlators of the clusters this worker owns (spec: state is owned by the worker that owns the cluster), fed by
// sql's capture bus (when sql is on), by broker notifications, and by the rr sampler for what no tap feeds. Each
// owned cluster gets a ClusterTracer; a pass every PASS_MS settles what is due and flushes the writer.
import type { PrismaClient } from '@/base/db/database.ts';
import type { SettingsReader } from '@/modules/kernel/plugin/index.ts';
import { managementLimitsOf, type BrokerEvent, type ManagementClient } from '@/modules/platform/broker/index.ts';
import { loadCommandTargets, managementClientFor } from '@/modules/platform/clusters/index.ts';
import type { AddressExpectation, ObservedMessage } from '../correlator/rr-types.ts';
import { observedFromCaptured, type CapturedShape } from '../feeds/observed.ts';
import { RR_SETTINGS } from '../rr.settings.ts';
import type { RrWriter } from '../store/rr-writer.ts';
import { ClusterTracer } from './cluster-tracer.ts';
import { logger } from '@/base/log/log.ts';

const rrLog = logger('rr');

const PASS_MS = 200;
const REFRESH_MS = 2_000;
const LOG_REPEAT_MS = 60_000;

interface ClusterView {
  readonly tracer: ClusterTracer;
  expectations: Map<string, { deadlineMs: number; expectedLatencyMs: number; replyAddress: string | null }>;
  capturedAddresses: ReadonlySet<string>;
  /** The declared reply addresses, from `expectations`. */
  replyAddresses: ReadonlySet<string>;
  clients: Map<string, ManagementClient>;
  refreshedAt: number;
  lastPollAt: number;
  lastSampleAt: number;
}

export interface RrRuntimeDependencies {
  readonly prisma: PrismaClient;
  readonly settings: SettingsReader;
  readonly owns: (clusterId: string) => boolean;
  readonly owned: () => readonly string[];
  readonly writer: RrWriter;
  /** The addresses a capture tap feeds on a cluster (sql on), or none. */
  readonly capturedAddresses: (clusterId: string) => Promise<ReadonlySet<string>>;
  readonly log?: (message: string) => void;
}

export class RrRuntime {
  private readonly clusters = new Map<string, ClusterView>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly logged = new Map<string, number>();

  constructor(private readonly dependencies: RrRuntimeDependencies) {}

  start(): void {
    const loop = () => {
      this.running = this.pass().catch((error: unknown) => this.log(`pass failed: ${String(error)}`));
      void this.running.then(() => {
        if (!this.stopped) this.timer = setTimeout(loop, PASS_MS);
      });
    };
    this.timer = setTimeout(loop, 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    await this.dependencies.writer.flush();
  }

  /** The capture bus's listener: every captured message of an owned cluster. */
  captured(messages: readonly CapturedShape[]): void {
    const now = Date.now();
    for (const message of messages) this.observe(message.clusterId, observedFromCaptured(message, now));
  }

  /** A message a feed saw (the benchmark feeds the correlator directly through this). */
  observe(clusterId: string, message: ObservedMessage): void {
    if (!this.dependencies.owns(clusterId)) return;
    this.viewOf(clusterId).tracer.message(message);
  }

  /** The cluster's expectations changed: read them again on the next pass. */
  expectationsChanged(clusterId: string): void {
    const view = this.clusters.get(clusterId);
    if (view) view.refreshedAt = 0;
  }

  /** A broker notification of an owned cluster. */
  event(event: BrokerEvent): void {
    if (event.kind !== 'BINDING_ADDED' && event.kind !== 'BINDING_REMOVED') return;
    if (!this.dependencies.owns(event.clusterKey)) return;
    this.viewOf(event.clusterKey).tracer.event(event);
  }

  private viewOf(clusterId: string): ClusterView {
    const known = this.clusters.get(clusterId);
    if (known) return known;
    const { settings } = this.dependencies;
    const view: ClusterView = {
      expectations: new Map(),
      capturedAddresses: new Set(),
      replyAddresses: new Set(),
      clients: new Map(),
      refreshedAt: 0,
      lastPollAt: 0,
      lastSampleAt: 0,
      tracer: new ClusterTracer({
        clusterId,
        clientFor: (nodeId) => view.clients.get(nodeId),
        servingNodes: () => [...view.clients.keys()],
        expectationFor: (address) => this.expectationOf(view, address),
        declaredReplyAddress: (address) => view.replyAddresses.has(address),
        orphanReplyGraceMs: () => settings.duration(RR_SETTINGS.orphanReplyGrace),
        maxAwaiting: () => settings.integer(RR_SETTINGS.maxAwaiting),
        offer: (correlations) => this.dependencies.writer.offer(clusterId, correlations),
        log: (message) => this.log(`cluster ${clusterId}: ${message}`),
      }),
    };
    this.clusters.set(clusterId, view);
    void this.closeForgotten(clusterId, new Date());
    return view;
  }

  /**
   * Requests a previous correlator left waiting (a worker restart, or another worker owned the cluster): this one
   * never saw them, so they are settled with a note instead of waiting forever.
   */
  private async closeForgotten(clusterId: string, before: Date): Promise<void> {
    try {
      await this.dependencies.prisma.rrEvent.updateMany({
        where: { clusterId, state: 'AWAITING_REPLY', storedAt: { lt: before } },
        data: {
          state: 'TIMED_OUT',
          stateAt: new Date(),
          note: 'Not traced to the end: the correlator that saw this request stopped (a worker restart or a change of owner) before it settled.',
        },
      });
    } catch (error) {
      this.log(`settling what a previous correlator left on cluster ${clusterId}: ${String(error)}`);
    }
  }

  private expectationOf(view: ClusterView, address: string): AddressExpectation {
    const declared = view.expectations.get(address);
    if (declared) return { ...declared, source: 'expectation' };
    return {
      expectedLatencyMs: null,
      deadlineMs: this.dependencies.settings.duration(RR_SETTINGS.defaultDeadline),
      replyAddress: null,
      source: 'default',
    };
  }

  private async pass(): Promise<void> {
    const now = Date.now();
    for (const clusterId of this.dependencies.owned()) {
      if (this.stopped) return;
      const view = this.viewOf(clusterId);
      if (now - view.refreshedAt >= REFRESH_MS) await this.refresh(clusterId, view, now);
      const { settings } = this.dependencies;
      const pollTemporaryQueues = now - view.lastPollAt >= settings.duration(RR_SETTINGS.temporaryQueuePoll);
      if (pollTemporaryQueues) view.lastPollAt = now;
      const sampleDue = now - view.lastSampleAt >= settings.duration(RR_SETTINGS.sampleInterval);
      if (sampleDue) view.lastSampleAt = now;
      const sample = sampleDue ? this.sampledAddresses(view) : [];
      await view.tracer.pass(now, { pollTemporaryQueues, sample });
    }
    for (const clusterId of this.clusters.keys()) {
      if (!this.dependencies.owns(clusterId)) this.clusters.delete(clusterId);
    }
    await this.dependencies.writer.flush();
  }

  /** Expectation addresses and their reply addresses that no capture tap feeds. */
  private sampledAddresses(view: ClusterView): string[] {
    const addresses = new Set<string>();
    for (const [address, expectation] of view.expectations) {
      addresses.add(address);
      if (expectation.replyAddress) addresses.add(expectation.replyAddress);
    }
    return [...addresses].filter((address) => !view.capturedAddresses.has(address));
  }

  private async refresh(clusterId: string, view: ClusterView, now: number): Promise<void> {
    const { prisma, settings } = this.dependencies;
    try {
      const rows = await prisma.rrExpectation.findMany({ where: { clusterId } });
      view.expectations = new Map(
        rows.map((row) => [
          row.address,
          { deadlineMs: row.deadlineMs, expectedLatencyMs: row.expectedLatencyMs, replyAddress: row.replyAddress },
        ]),
      );
      view.replyAddresses = new Set(rows.flatMap((row) => (row.replyAddress ? [row.replyAddress] : [])));
      view.capturedAddresses = await this.dependencies.capturedAddresses(clusterId);
      const targets = await loadCommandTargets(prisma, clusterId);
      const limits = managementLimitsOf(settings);
      view.clients = new Map(
        (targets?.targets ?? []).map((target) => [
          target.nodeId,
          managementClientFor(target.nodeId, target.endpoint, limits),
        ]),
      );
      view.refreshedAt = now;
    } catch (error) {
      this.log(`refreshing cluster ${clusterId}: ${String(error)}`);
    }
  }

  /** Logs a line; the same line again within LOG_REPEAT_MS is dropped (a node down fails every pass alike). */
  private log(message: string): void {
    const now = Date.now();
    const last = this.logged.get(message);
    if (last !== undefined && now - last < LOG_REPEAT_MS) return;
    this.logged.set(message, now);
    if (this.logged.size > 1_000) this.logged.clear();
    (this.dependencies.log ?? ((line: string) => rrLog.error(line)))(message);
  }
}
