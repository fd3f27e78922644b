import { contribution, defineModule } from '@/modules/kernel/plugin/index.ts';
import { streamEventSources } from '@/modules/kernel/stream/module.ts';
import { brokerEventConsumers } from '@/modules/platform/broker/module.ts';
import { storedContent } from '@/modules/platform/governance/module.ts';
import { telemetrySources } from '@/modules/platform/telemetry/module.ts';
import { EVENTS_SETTING_KEYS, eventsSettings } from './server/events.settings.ts';

export const eventsModule = defineModule({
  id: 'events',
  title: 'Events',
  layer: 'feature',
  description:
    'Every broker notification from every serving node kept in broker_event (once fleet-wide, by the owning worker), searchable over the API, live on the stream with replay, and the change signals it implies.',
  requires: ['core', 'access', 'stream', 'broker', 'clusters', 'governance', 'telemetry'],
  permissions: [{ id: 'event:read', description: 'See a cluster’s broker events', includedIn: 'viewer' }],
  settings: eventsSettings,
  topics: ['events', 'consumers', 'sessions', 'connections'],
  apiPrefixes: ['/api/v1/clusters/{clusterId}/events'],
  jobs: [
    {
      id: 'events.retention',
      description: 'Deletes broker events older than events.retention.',
      schedule: { everySetting: EVENTS_SETTING_KEYS.reaperInterval },
      exclusive: true,
      load: () => import('./server/jobs/events-retention.job.ts'),
    },
  ],
  workerServices: [{ id: 'remask', stage: 'scrape', load: () => import('./server/remask.worker.ts') }],
  contributions: [
    contribution(telemetrySources, {
      id: 'events',
      load: async () => (await import('./server/events-telemetry.ts')).eventsTelemetry,
    }),
    contribution(storedContent, {
      id: 'broker-events',
      load: async () => (await import('./server/remask.ts')).brokerEventStore,
    }),
    contribution(brokerEventConsumers, {
      id: 'store',
      load: async (context) => (await import('./server/events-consumer.ts')).createEventsConsumer(context),
    }),
    contribution(streamEventSources, {
      topic: 'events',
      load: () => import('./server/event-source.ts'),
    }),
  ],
});
