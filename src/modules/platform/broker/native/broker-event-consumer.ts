// The broker.event-consumers extension point's contract: what a module contributes to hear every broker
// notification. Types only, so the descriptor that declares the point can name them without a cycle.
import type { WorkerServiceContext } from '@/modules/kernel/plugin/index.ts';
import type { BrokerEvent } from './broker-event.ts';

export interface BrokerEventConsumer {
  /** Called for every notification from every subscribed node, in arrival order; must not block. */
  consume(event: BrokerEvent): void;
  /** At shutdown, after the subscriptions closed: finish what is buffered. */
  stop?(): Promise<void>;
}

export interface BrokerEventConsumerDeclaration {
  readonly id: string;
  /** Made once in the worker, with the worker's database, settings and signals. */
  readonly load: (context: WorkerServiceContext) => Promise<BrokerEventConsumer>;
}

export type BrokerEventHandler = (event: BrokerEvent) => void;
