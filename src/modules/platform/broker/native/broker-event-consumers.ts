// Broker event consumers (the events module, request-reply, consumer health …) are contributed to the broker's
// `broker.event-consumers` extension point. The worker service that holds the subscriptions builds one dispatcher
// from the enabled contributions; a consumer that throws is logged and skipped so it never starves the others.
import type { ModuleRegistry, WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import { brokerEventConsumers } from '../module.ts';
import type { BrokerEventConsumer, BrokerEventHandler } from './broker-event-consumer.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('broker');

/** Hands each event to every consumer in turn; one that throws is logged and the rest still get the event. */
function dispatchTo(
  consumers: readonly { readonly id: string; readonly consumer: BrokerEventConsumer }[],
): BrokerEventHandler {
  return (event) => {
    for (const { id, consumer } of consumers) {
      try {
        consumer.consume(event);
      } catch (error) {
        log.error(
          { err: error, consumer: id, kind: event.kind, node: event.nodeKey },
          'a broker event consumer failed',
        );
      }
    }
  };
}

export interface BrokerEventDispatcher {
  readonly handle: BrokerEventHandler;
  /** Lets every consumer finish (flush its buffer); one that fails is logged, the others still finish. */
  stop(): Promise<void>;
}

/** Loads the enabled modules' consumers once and returns the dispatcher the subscriptions call. */
export async function loadBrokerEventDispatcher(
  registry: ModuleRegistry,
  context: WorkerServiceContext,
): Promise<BrokerEventDispatcher> {
  const consumers = await Promise.all(
    registry
      .contributionsTo(brokerEventConsumers)
      .map(async ({ moduleId, value }) => ({ id: `${moduleId}/${value.id}`, consumer: await value.load(context) })),
  );
  return {
    handle: dispatchTo(consumers),
    async stop() {
      await Promise.all(
        consumers.map(async ({ id, consumer }) => {
          try {
            await consumer.stop?.();
          } catch (error) {
            log.error({ err: error, consumer: id }, 'a broker event consumer did not stop');
          }
        }),
      );
    },
  };
}
