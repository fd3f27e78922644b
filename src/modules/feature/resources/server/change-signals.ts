// Change signals end what the cache keeps: the events module turns each consumer, session and connection
// notification into a signal on the bus, and this process drops the lists they touch, so the screen that refetches
// on the same signal reads the brokers again instead of the copy from before the change. A cluster whose nodes
// changed, or that was removed (ClusterChanged), loses everything kept of it (what the process held for nodes that
// are gone, their management clients, limiters and health state, the clusters module ends in every process).
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { PrismaClient } from '@/base/db/database.ts';
import type { InternalNotifications } from '@/modules/kernel/core/index.ts';
import { parseSignal, STREAM_CHANNEL } from '@/modules/kernel/stream/index.ts';
import type { LiveListKind } from '@/modules/platform/broker/index.ts';
import { forgetLiveLists } from './live-read.ts';
import { forgetNodeFacts } from './node-facts.ts';

const LISTS_OF_TOPIC: Readonly<Record<string, readonly LiveListKind[]>> = {
  consumers: ['consumers', 'sessions'],
  sessions: ['sessions', 'consumers', 'producers'],
  connections: ['connections', 'sessions', 'consumers', 'producers'],
  queues: ['addresses'],
};

const listening = new WeakSet<DatabaseBus>();

/** Listens once per bus (per process). */
export function followChangeSignals(runtime: {
  readonly bus: DatabaseBus;
  readonly notifications: InternalNotifications;
  readonly prisma: PrismaClient;
}): void {
  const { bus } = runtime;
  if (listening.has(bus)) return;
  listening.add(bus);
  bus.listen(STREAM_CHANNEL, (payload) => {
    const signal = parseSignal(payload);
    const lists = signal ? LISTS_OF_TOPIC[signal.topic] : undefined;
    if (!signal || !lists) return;
    forgetLiveLists(signal.clusterId, lists);
    if (signal.topic === 'queues') forgetNodeFacts(signal.clusterId);
  });
  // Signals sent while the bus was down are lost: forget everything rather than serve what may have changed.
  bus.onReconnect(() => {
    forgetLiveLists(undefined);
    forgetNodeFacts(undefined);
  });
  runtime.notifications.subscribe('ClusterChanged', ({ clusterId }) => {
    forgetLiveLists(clusterId);
    forgetNodeFacts(clusterId);
  });
}
