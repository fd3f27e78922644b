// Runtime settings of the scrape: tier cadences (re-applied on change), listing page sizes and metric retention.
import { durationSetting, integerSetting, type SettingDeclaration } from '@/modules/kernel/plugin/index.ts';
import type { Tier } from '../read/tiers.ts';

export const SCRAPE_SETTING_KEYS = {
  tierA: 'scrape.tier-a-interval',
  tierB: 'scrape.tier-b-interval',
  tierC: 'scrape.tier-c-interval',
  firstPageSize: 'scrape.first-page-size',
  pageSize: 'scrape.page-size',
  metricRetention: 'scrape.metric-retention',
  maintenanceInterval: 'scrape.metric-maintenance-interval',
} as const;

/** Each declaration by name: a read names one (`settings.duration(SCRAPE_SETTINGS.metricRetention)`), never a key. */
export const SCRAPE_SETTINGS = {
  tierA: durationSetting({
    key: SCRAPE_SETTING_KEYS.tierA,
    description: 'Tier A: how often each node’s HA state (Active, Started, Backup, ReplicaSync, node id) is read.',
    defaultValue: '5s',
    min: '200ms',
    max: '10m',
  }),
  tierB: durationSetting({
    key: SCRAPE_SETTING_KEYS.tierB,
    description: 'Tier B: how often the first page of each node’s queue listing is read (fast refresh, best effort).',
    defaultValue: '15s',
    min: '200ms',
    max: '1h',
  }),
  tierC: durationSetting({
    key: SCRAPE_SETTING_KEYS.tierC,
    description:
      'Tier C: how often every page of each node’s queue listing is read in one call; queues no longer listed are removed.',
    defaultValue: '5m',
    min: '500ms',
    max: '24h',
  }),
  firstPageSize: integerSetting({
    key: SCRAPE_SETTING_KEYS.firstPageSize,
    description: 'Queues read per node by tier B (the first page of the listing).',
    defaultValue: 200,
    min: 1,
    max: 10_000,
  }),
  pageSize: integerSetting({
    key: SCRAPE_SETTING_KEYS.pageSize,
    description:
      'Queues per page in tier C’s one call (it asks for as many pages as the last listing needed, plus room).',
    defaultValue: 2000,
    min: 10,
    max: 10_000,
  }),
  metricRetention: durationSetting({
    key: SCRAPE_SETTING_KEYS.metricRetention,
    description: 'How long queue metric samples are kept; older daily partitions of metric_sample are dropped.',
    defaultValue: '7d',
    min: '1d',
    max: '400d',
  }),
  maintenanceInterval: durationSetting({
    key: SCRAPE_SETTING_KEYS.maintenanceInterval,
    description: 'How often metric_sample partitions are made ahead and expired ones dropped.',
    defaultValue: '1h',
    min: '1s',
    max: '1d',
  }),
};

export const scrapeSettings: readonly SettingDeclaration[] = Object.values(SCRAPE_SETTINGS);

/** Each tier's interval setting, by tier. */
export const TIER_INTERVAL_SETTINGS: Record<Tier, SettingDeclaration<'duration'>> = {
  A: SCRAPE_SETTINGS.tierA,
  B: SCRAPE_SETTINGS.tierB,
  C: SCRAPE_SETTINGS.tierC,
};
