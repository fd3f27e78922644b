import { defineModule } from '@/modules/kernel/plugin/index.ts';
import { SCRAPE_SETTING_KEYS, scrapeSettings } from './server/scrape.settings.ts';

declare module '@/modules/kernel/core/internal-notifications.ts' {
  interface InternalNotificationMap {
    /** A scrape tier finished for one cluster (scrape → alerting, HA reconciliation), published in tier order. */
    ScrapeTierCompleted: {
      clusterId: string;
      tier: 'A' | 'B' | 'C';
      startedAt: string;
      completedAt: string;
      nodesScraped: number;
      nodesFailed: number;
    };
  }
}

export const scrapeModule = defineModule({
  id: 'scrape',
  title: 'Scrape',
  layer: 'platform',
  description:
    'The tiered scrape (HA state, first queue page, every queue page) into queue_snapshot and the partitioned metric_sample, one instance per cluster by advisory lock.',
  requires: ['core', 'access', 'broker', 'clusters', 'stream'],
  settings: scrapeSettings,
  topics: ['queues'],
  apiPrefixes: ['/api/v1/scrape'],
  jobs: [
    {
      id: 'scrape.metric-partitions',
      description: 'Makes the daily metric_sample partitions for today and the next two days.',
      schedule: { everySetting: SCRAPE_SETTING_KEYS.maintenanceInterval },
      exclusive: true,
      load: () => import('./server/jobs/metric-partitions.job.ts'),
    },
    {
      id: 'scrape.metric-retention',
      description: 'Drops metric_sample partitions older than scrape.metric-retention.',
      schedule: { everySetting: SCRAPE_SETTING_KEYS.maintenanceInterval },
      exclusive: true,
      load: () => import('./server/jobs/metric-retention.job.ts'),
    },
  ],
  healthIndicators: [{ id: 'scrape', load: () => import('./server/scrape.health.ts') }],
  workerServices: [{ id: 'scrape', stage: 'scrape', load: () => import('./server/scrape.worker.ts') }],
});
