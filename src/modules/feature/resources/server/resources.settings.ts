// The resources module's runtime settings: how long a live-through read is shared, and how many rows of one kind a
// node is asked for at most.
import { durationSetting, integerSetting } from '@/modules/kernel/plugin/index.ts';

const RESOURCES_SETTING_KEYS = {
  cacheTtl: 'resources.cache-ttl',
  maxRowsPerNode: 'resources.max-rows-per-node',
  slowConsumerAfter: 'resources.slow-consumer-after',
  diskWarnMargin: 'resources.disk-warn-margin-percent',
  memoryWarnPercent: 'resources.memory-warn-percent',
} as const;

/** Each declaration by name: a read names one (`settings.duration(RESOURCES_SETTINGS.x)`), never a bare key. */
export const RESOURCES_SETTINGS = {
  cacheTtl: durationSetting({
    key: RESOURCES_SETTING_KEYS.cacheTtl,
    description:
      'How long a live-through read of a cluster’s consumers, sessions, connections, producers, addresses or node facts is shared by every screen and API call of this process; a consumer, session or connection notification ends it at once.',
    defaultValue: '5s',
    min: '0s',
    max: '5m',
  }),
  maxRowsPerNode: integerSetting({
    key: RESOURCES_SETTING_KEYS.maxRowsPerNode,
    description:
      'The most rows of one kind asked of one node per read (one management call); a node holding more says so in the answer.',
    defaultValue: 20_000,
    min: 100,
    max: 200_000,
  }),
  slowConsumerAfter: durationSetting({
    key: RESOURCES_SETTING_KEYS.slowConsumerAfter,
    description:
      'A consumer with messages in flight that has acknowledged none for this long (since it attached, if it never has) is marked slow.',
    defaultValue: '30s',
    min: '1s',
    max: '1h',
  }),
  diskWarnMargin: integerSetting({
    key: RESOURCES_SETTING_KEYS.diskWarnMargin,
    description:
      'Warn on a node whose disk store use is within this many percentage points of its max-disk-usage (where the broker blocks producers).',
    defaultValue: 10,
    min: 0,
    max: 100,
  }),
  memoryWarnPercent: integerSetting({
    key: RESOURCES_SETTING_KEYS.memoryWarnPercent,
    description:
      'Warn on a node whose address memory use reaches this percentage of its global-max-size (where addresses start to page, block or drop).',
    defaultValue: 80,
    min: 1,
    max: 100,
  }),
};

export const resourcesSettings = Object.values(RESOURCES_SETTINGS);
