// The registry of broker event consumers (the events module, request-reply, consumer health …). A consumer
// that throws is logged and skipped so one faulty consumer never starves the others.
import type { BrokerEvent } from './broker-event.ts';

export type BrokerEventConsumer = (event: BrokerEvent) => void;

const consumers = new Set<BrokerEventConsumer>();

/** Registers a consumer for every notification from every node; returns the function that removes it. */
export function registerBrokerEventConsumer(consumer: BrokerEventConsumer): () => void {
  consumers.add(consumer);
  return () => {
    consumers.delete(consumer);
  };
}

export function dispatchBrokerEvent(event: BrokerEvent, log: (message: string) => void = console.error): void {
  for (const consumer of consumers) {
    try {
      consumer(event);
    } catch (error) {
      log(`broker event consumer failed on ${event.kind} from ${event.nodeKey}: ${String(error)}`);
    }
  }
}
