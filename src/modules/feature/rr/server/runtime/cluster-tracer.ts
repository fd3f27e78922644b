// One cluster's correlator with what only the broker can tell it, in the worker that owns the cluster:
// - its temporary reply queues' counters, polled while a request waits on one (no tap sees a reply there);
// - whether a request is still on its queue, read at its deadline and when its temporary queue goes;
// - the sampled addresses: expectation addresses (and their reply addresses) that no capture tap feeds, browsed.
// Each pass does these in turn; a pass still running when the next is due is skipped, never doubled.
import { setTimeout as delay } from 'node:timers/promises';
import type { BrokerEvent, ManagementClient } from '@/modules/platform/broker/index.ts';
import { readAddressMessages, readTemporaryQueueCounts } from '@/modules/platform/broker/index.ts';
import { Correlator, type AwaitingRequest } from '../correlator/correlator.ts';
import type { AddressExpectation, Correlation, ObservedMessage } from '../correlator/rr-types.ts';
import { idsOfBrowsed, observedFromBrowsed } from '../feeds/observed.ts';

/** How many queued messages per queue a presence read or a sample browses. */
const BROWSE_CAP = 1_000;

export interface TracerDependencies {
  readonly clusterId: string;
  /** A management client for a serving node of the cluster (undefined: not serving now). */
  readonly clientFor: (nodeId: string) => ManagementClient | undefined;
  /** The serving nodes, for sampling. */
  readonly servingNodes: () => readonly string[];
  readonly expectationFor: (address: string) => AddressExpectation;
  readonly declaredReplyAddress: (address: string) => boolean;
  readonly orphanReplyGraceMs: () => number;
  readonly maxAwaiting: () => number;
  readonly offer: (correlations: readonly Correlation[]) => void;
  readonly log: (message: string) => void;
}

/** Where a request is when asked: on its queue, held unacknowledged by a consumer, acknowledged, or not known. */
type Presence = 'queued' | 'delivering' | 'gone' | undefined;

/** How long a request held by a consumer when its temporary reply queue goes is given to be acknowledged. */
const ACK_AFTER_REPLY_GRACE_MS = 2_000;

/** How long, and how many, removed temporary queues are remembered for requests that arrive after. */
const REMOVED_MEMORY_MS = 60_000;
const REMOVED_MEMORY_SIZE = 10_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class ClusterTracer {
  readonly correlator: Correlator;
  /** Temporary queue → the node it lives on (from BINDING_ADDED). */
  private readonly temporaryQueueNode = new Map<string, string>();
  /** Temporary queue → how many of its MessagesAdded were already taken as replies. */
  private readonly attributedReplies = new Map<string, number>();
  /**
   * Temporary queues removed lately → when: a fast requester is gone before its request's capture copy reaches the
   * correlator (the copy goes through the index first), so a request naming one settles as soon as it arrives.
   */
  private readonly removedTemporaryQueues = new Map<string, number>();
  private busy = false;

  constructor(private readonly dependencies: TracerDependencies) {
    this.correlator = new Correlator({
      expectationFor: (address) => dependencies.expectationFor(address),
      declaredReplyAddress: (address) => dependencies.declaredReplyAddress(address),
      get orphanReplyGraceMs() {
        return dependencies.orphanReplyGraceMs();
      },
      get maxAwaiting() {
        return dependencies.maxAwaiting();
      },
    });
  }

  message(message: ObservedMessage): void {
    const correlations = this.correlator.message(message);
    this.dependencies.offer(correlations);
    for (const correlation of correlations) {
      const removedAt = correlation.replyAddress
        ? this.removedTemporaryQueues.get(correlation.replyAddress)
        : undefined;
      if (correlation.state !== 'AWAITING_REPLY' || removedAt === undefined || !correlation.replyAddress) continue;
      void this.settleRemoved(this.correlator.temporaryQueueRemoved(correlation.replyAddress), removedAt);
    }
  }

  /** The notifications that matter: a temporary queue made (where it lives) and removed (its requests settle). */
  event(event: BrokerEvent): void {
    const address = event.address;
    if (!address) return;
    if (event.kind === 'BINDING_ADDED' && event.queue === address && UUID.test(address)) {
      this.temporaryQueueNode.set(address, event.nodeKey);
      this.attributedReplies.set(address, 0);
    } else if (event.kind === 'BINDING_REMOVED' && event.queue === address) {
      const waiting = this.correlator.temporaryQueueRemoved(address);
      const removedAt = Date.parse(event.time) || Date.now();
      this.temporaryQueueNode.delete(address);
      this.attributedReplies.delete(address);
      this.rememberRemoved(address, removedAt);
      if (waiting.length > 0) void this.settleRemoved(waiting, removedAt);
    }
  }

  private rememberRemoved(address: string, at: number): void {
    this.removedTemporaryQueues.set(address, at);
    for (const [name, removedAt] of this.removedTemporaryQueues) {
      if (removedAt > at - REMOVED_MEMORY_MS && this.removedTemporaryQueues.size <= REMOVED_MEMORY_SIZE) break;
      this.removedTemporaryQueues.delete(name);
    }
  }

  /** One pass: held replies, temporary queues, deadlines, then sampling when asked. */
  async pass(now: number, options: { pollTemporaryQueues: boolean; sample: readonly string[] }): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      this.dependencies.offer(this.correlator.expireHeldReplies(now));
      if (options.pollTemporaryQueues) await this.pollTemporaryQueues(now);
      const due = this.correlator.due(now);
      if (due.length > 0) await this.settleDue(due, now);
      if (options.sample.length > 0) await this.sample(options.sample, Date.now());
    } finally {
      this.busy = false;
    }
  }

  private async pollTemporaryQueues(now: number): Promise<void> {
    const byNode = new Map<string, Set<string>>();
    for (const awaiting of this.correlator.awaitingRequests()) {
      if (awaiting.pattern !== 'temporary-queue' || !awaiting.replyAddress) continue;
      const node = this.temporaryQueueNode.get(awaiting.replyAddress) ?? awaiting.request.nodeId;
      byNode.set(node, (byNode.get(node) ?? new Set()).add(awaiting.replyAddress));
    }
    for (const [nodeId, addresses] of byNode) {
      const client = this.dependencies.clientFor(nodeId);
      if (!client) continue;
      try {
        const names = [...addresses];
        const counts = await readTemporaryQueueCounts(client, names);
        for (const name of names) {
          const count = counts.get(name);
          if (!count) continue;
          const attributed = this.attributedReplies.get(name);
          // A queue made before this worker saw its BINDING_ADDED: what it held then is not ours to count.
          if (attributed === undefined) {
            this.attributedReplies.set(name, count.messagesAdded);
            continue;
          }
          for (let reply = attributed; reply < count.messagesAdded; reply++) {
            this.dependencies.offer(this.correlator.replyReachedTemporaryQueue(name, now));
          }
          this.attributedReplies.set(name, count.messagesAdded);
        }
      } catch (error) {
        this.dependencies.log(`temporary queue poll on node ${nodeId}: ${String(error)}`);
      }
    }
  }

  /**
   * Where each request is: waiting on its queue, held unacknowledged by a consumer, gone (acknowledged), or undefined
   * where the read could not say. One read per node, every address of the node's requests in it.
   */
  private async presence(requests: readonly AwaitingRequest[]): Promise<Map<string, Presence>> {
    const byNode = new Map<string, AwaitingRequest[]>();
    for (const awaiting of requests) {
      byNode.set(awaiting.request.nodeId, [...(byNode.get(awaiting.request.nodeId) ?? []), awaiting]);
    }
    const answers = new Map<string, Presence>();
    for (const [nodeId, group] of byNode) {
      const client = this.dependencies.clientFor(nodeId);
      try {
        if (!client) throw new Error('the node is not serving');
        const addresses = [...new Set(group.map((awaiting) => awaiting.request.address))];
        const reads = await readAddressMessages(client, addresses, BROWSE_CAP);
        for (const awaiting of group) {
          const read = reads.get(awaiting.request.address);
          const { messageId, correlationId } = awaiting.request;
          const holds = (messages: readonly Readonly<Record<string, unknown>>[] | undefined) => {
            const ids = new Set((messages ?? []).flatMap(idsOfBrowsed));
            return (
              (messageId !== null && ids.has(messageId.replace(/^ID:/, ''))) ||
              (correlationId !== null && ids.has(correlationId))
            );
          };
          const where: Presence = holds(read?.queued)
            ? 'queued'
            : holds(read?.delivering)
              ? 'delivering'
              : read?.complete
                ? 'gone'
                : undefined;
          answers.set(awaiting.key, where);
        }
      } catch (error) {
        this.dependencies.log(`presence read on node ${nodeId}: ${String(error)}`);
        for (const awaiting of group) answers.set(awaiting.key, undefined);
      }
    }
    return answers;
  }

  private async settleDue(due: readonly AwaitingRequest[], now: number): Promise<void> {
    const present = await this.presence(due);
    for (const awaiting of due) {
      const where = present.get(awaiting.key);
      const acknowledged = where === undefined ? undefined : where === 'gone';
      this.dependencies.offer(this.correlator.settleDue(awaiting.key, acknowledged, now));
    }
  }

  /**
   * Settles the requests of a removed temporary queue. One a consumer still holds is asked about again after
   * ACK_AFTER_REPLY_GRACE_MS: a responder that acknowledges after sending its reply (as a listener container does
   * when the reply is sent inside the listener) is often still holding the request when the requester, answered,
   * removes its queue.
   */
  private async settleRemoved(waiting: readonly AwaitingRequest[], at: number, askedAgain = false): Promise<void> {
    const present = await this.presence(waiting);
    const held = askedAgain ? [] : waiting.filter((awaiting) => present.get(awaiting.key) === 'delivering');
    for (const awaiting of waiting) {
      if (held.includes(awaiting)) continue;
      const where = present.get(awaiting.key);
      const stillQueued = where === undefined ? undefined : where !== 'gone';
      this.dependencies.offer(this.correlator.settleRemovedQueue(awaiting.key, stillQueued, at));
    }
    if (held.length === 0) return;
    await delay(ACK_AFTER_REPLY_GRACE_MS, undefined, { ref: false });
    await this.settleRemoved(held, at, true);
  }

  /** Every sampled address of a node in one read (two POSTs), node by node. */
  private async sample(addresses: readonly string[], now: number): Promise<void> {
    for (const nodeId of this.dependencies.servingNodes()) {
      const client = this.dependencies.clientFor(nodeId);
      if (!client) continue;
      try {
        const reads = await readAddressMessages(client, addresses, BROWSE_CAP);
        for (const [address, read] of reads) {
          for (const raw of [...read.queued, ...read.delivering]) {
            this.message(observedFromBrowsed(raw, { nodeId, address }, now));
          }
        }
      } catch (error) {
        this.dependencies.log(`sampling on node ${nodeId}: ${String(error)}`);
      }
    }
  }
}
