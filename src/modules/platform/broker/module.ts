import { createExtensionPoint, defineModule } from '@/modules/kernel/plugin/index.ts';
import type { BrokerEventConsumerDeclaration } from './native/broker-event-consumer.ts';
import { reportIntervalSetting } from './management/health-report.settings.ts';
import { managementSettings } from './management/management.settings.ts';
import { nativeSettings } from './native/native.settings.ts';

export type { BrokerEventConsumerDeclaration } from './native/broker-event-consumer.ts';

/** Consumers of every broker notification (address, binding, consumer, security events …) from subscribed nodes. */
export const brokerEventConsumers = createExtensionPoint<BrokerEventConsumerDeclaration>({
  id: 'broker.event-consumers',
  owner: 'broker',
  cardinality: 'many',
});

export const brokerModule = defineModule({
  id: 'broker',
  title: 'Broker',
  layer: 'platform',
  description:
    'Management (Jolokia) and native (AMQP) clients for Artemis nodes, the per-node call limiter, capability probing, notification subscriptions and message transport.',
  requires: [],
  settings: [...managementSettings, ...nativeSettings, reportIntervalSetting],
  extensionPoints: [brokerEventConsumers],
  healthIndicators: [{ id: 'brokers', load: () => import('./management/brokers.health.ts') }],
  // The `subscriptions` indicator is the clusters module's: it knows which nodes serve and reads the worker's
  // persisted subscription state, which the web process answering health can see.
  workerServices: [
    { id: 'native-pools', stage: 'pools', load: () => import('./native/native-pools.worker.ts') },
    { id: 'health-report', stage: 'scrape', load: () => import('./management/health-report.worker.ts') },
  ],
});
