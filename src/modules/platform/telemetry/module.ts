import { defineModule } from '@/modules/kernel/plugin/index.ts';
import { QUEUE_LABELS, queueLabelsOf, telemetrySources } from './server/metric-source.ts';
import { telemetrySettings } from './server/telemetry.settings.ts';

// The point feature modules contribute their families to, and its contract.
export { QUEUE_LABELS, queueLabelsOf, telemetrySources };
export type { TelemetryContext, TelemetrySource } from './server/metric-source.ts';

export const telemetryModule = defineModule({
  id: 'telemetry',
  title: 'Telemetry',
  layer: 'platform',
  description:
    'GET /metrics in the Prometheus text format: Flotilla’s own health (scrape duration and lag per tier, limiter waits, stream subscribers, jobs, process) and the fleet’s state (nodes up and serving, queue depth, rates, consumers), read from the stored state on each scrape with a short cache; features add theirs through telemetry.metric-sources. Access by a scrape token or an address allowlist, never anonymous by default.',
  requires: ['core', 'jobs', 'stream', 'clusters', 'scrape'],
  settings: telemetrySettings,
  extensionPoints: [telemetrySources],
});
