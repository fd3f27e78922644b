// rr's contribution to broker.event-consumers: a temporary queue's BINDING_ADDED (where it lives) and BINDING_REMOVED
// (its waiting requests settle) reach the correlator of the cluster's owner.
import type { BrokerEventConsumer } from '@/modules/platform/broker/index.ts';
import { currentRuntime } from '../runtime/runtime-holder.ts';

export function createRrEventConsumer(): BrokerEventConsumer {
  return { consume: (event) => currentRuntime()?.event(event) };
}
