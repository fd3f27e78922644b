// What the brokers hold in a cluster's dead-letter queues, kept by this process for a few seconds (the live-through
// cache of ADR 13, keyed by queue): the Dead letters screen refetches on every `queues` signal and polls while the
// stream is down, so ten viewers would otherwise cost every node ten counting POSTs per change. A page with a queue not
// kept counts all of its queues again, in the same one POST per node, so its counts are of one moment. A `queues`
// signal of the cluster (the scrape saw depths move, a redrive or purge committed) drops its counts, so the refetch it
// causes asks the brokers again; an answer with a failed node is not kept. A cluster whose nodes changed or that was
// removed (ClusterChanged) loses its counts, and this process ends what it held for nodes that are gone.
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { PrismaClient } from '@/base/db/database.ts';
import type { InternalNotifications } from '@/modules/kernel/core/index.ts';
import { LiveCache } from '@/base/live-cache.ts';
import { parseSignal, STREAM_CHANNEL } from '@/modules/kernel/stream/index.ts';
import type { QueueCount, QueueRef } from '@/modules/platform/broker/index.ts';

export interface NodeFailureRow {
  readonly clusterId: string;
  readonly clusterName: string;
  readonly nodeName: string;
  readonly kind: string;
  readonly message: string;
}

/** One cluster's count of the queues asked: each answering node's count of each, and the nodes that failed. */
export interface ClusterCount {
  readonly answers: readonly (readonly QueueCount[])[];
  readonly failures: readonly NodeFailureRow[];
  readonly nodes: number;
}

/** One queue's part of a cluster count, as kept. */
interface QueueCounted {
  readonly perNode: readonly (QueueCount | undefined)[];
  readonly read: ClusterCount;
}

export interface KeptCounts {
  readonly perNode: readonly (QueueCount | undefined)[];
  readonly complete: boolean;
  /** When the brokers were asked (epoch ms); the oldest of the reads the answer was put together from. */
  readonly fetchedAt: number;
  readonly failures: readonly NodeFailureRow[];
}

const cache = new LiveCache<string, QueueCounted>();
const following = new WeakSet<DatabaseBus>();

/** Drops the kept counts of a cluster when a `queues` signal says its queues changed (once per bus, per process). */
export function followQueueSignals(runtime: {
  readonly bus: DatabaseBus;
  readonly notifications: InternalNotifications;
  readonly prisma: PrismaClient;
}): void {
  const { bus } = runtime;
  if (following.has(bus)) return;
  following.add(bus);
  bus.listen(STREAM_CHANNEL, (payload) => {
    const signal = parseSignal(payload);
    if (signal?.topic === 'queues') cache.invalidate(signal.clusterId);
  });
  // Signals sent while the bus was down are lost: forget everything rather than serve what may have changed.
  bus.onReconnect(() => cache.invalidate(undefined));
  runtime.notifications.subscribe('ClusterChanged', ({ clusterId }) => cache.invalidate(clusterId));
}

/** Drops what is kept (of one cluster, or of all): tests, and a caller that knows better. */
export function forgetDeadLetterCounts(clusterId: string | undefined): void {
  cache.invalidate(clusterId);
}

/**
 * Each queue's counts, kept (for `ttlMs`, the setting queues.dead-letter-counts-ttl) or read with `count` (called
 * once, with every queue of the page that is not kept). A read with a failed node is served to its callers and then
 * dropped, so the next read asks again.
 */
export async function keptCounts(
  clusterId: string,
  refs: readonly QueueRef[],
  ttlMs: number,
  count: (refs: readonly QueueRef[]) => Promise<ClusterCount>,
): Promise<KeptCounts[]> {
  const byName = new Map(refs.map((ref) => [ref.queue, ref]));
  const read = await cache.read(clusterId, [...byName.keys()], ttlMs, async (names) => {
    const asked = names.flatMap((name) => byName.get(name) ?? []);
    const counted = await count(asked);
    return Object.fromEntries(
      asked.map((ref, index) => [
        ref.queue,
        { perNode: counted.answers.map((counts) => counts[index]), read: counted },
      ]),
    );
  });
  const failedNames = Object.entries(read)
    .filter(([, entry]) => entry.value.read.failures.length > 0)
    .map(([name]) => name);
  if (failedNames.length > 0) cache.invalidate(clusterId, failedNames);
  return refs.map((ref) => {
    const entry = read[ref.queue];
    if (!entry) throw new Error(`no count of ${ref.queue}`);
    const { perNode, read: counted } = entry.value;
    return {
      perNode,
      complete: counted.failures.length === 0 && counted.answers.length === counted.nodes,
      fetchedAt: entry.fetchedAt,
      failures: counted.failures,
    };
  });
}
