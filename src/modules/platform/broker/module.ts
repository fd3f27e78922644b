import { defineModule } from '../../kernel/plugin/descriptor.ts';
import { managementSettings } from './management/management.settings.ts';
import { nativeSettings } from './native/native.settings.ts';

export const brokerModule = defineModule({
  id: 'broker',
  title: 'Broker',
  layer: 'platform',
  description:
    'Management (Jolokia) and native (AMQP) clients for Artemis nodes, the per-node call limiter, capability probing, notification subscriptions and message transport.',
  requires: ['core'],
  settings: [...managementSettings, ...nativeSettings],
  healthIndicators: [{ id: 'brokers', load: () => import('./management/brokers.health.ts') }],
  // The `subscriptions` indicator is the clusters module's: it knows which nodes serve and reads the worker's
  // persisted subscription state, which the web process answering health can see.
  workerServices: [{ id: 'native-pools', stage: 'pools', load: () => import('./native/native-pools.service.ts') }],
});
