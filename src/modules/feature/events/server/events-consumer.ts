// The events module's contribution to broker.event-consumers: one EventWriter in the worker, fed every notification
// of every subscribed node, writing only the clusters this worker owns.
import { borrowedDatabase } from '@/base/db/database.ts';
import type { WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import type { BrokerEventConsumer } from '@/modules/platform/broker/index.ts';
import { clusterOwnershipOf } from '@/modules/platform/clusters/index.ts';
import { EventWriter } from './event-writer.ts';
import { EVENTS_SETTINGS } from './events.settings.ts';

export function createEventsConsumer(context: WorkerServiceContext): BrokerEventConsumer {
  const shared = clusterOwnershipOf(context.pool);
  const writer = new EventWriter({
    pool: context.pool,
    owns: (clusterId) => shared.ownership.owns(clusterId),
    capacity: () => context.settings.integer(EVENTS_SETTINGS.bufferSize),
    publishSignal: context.publishSignal,
    notify: (channel, payload) => context.bus.notify(channel, payload),
    governance: { db: borrowedDatabase(context.pool, context.prisma), bus: context.bus },
  });
  return {
    consume: (event) => writer.consume(event),
    async stop() {
      await writer.stop();
      await shared.detach();
    },
  };
}
