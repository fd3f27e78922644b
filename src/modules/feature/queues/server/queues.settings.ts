// The queues module's runtime settings: how long the fleet dead-letter view's broker counts are shared.
import { durationSetting } from '@/modules/kernel/plugin/index.ts';

const QUEUES_SETTING_KEYS = {
  deadLetterCountsTtl: 'queues.dead-letter-counts-ttl',
} as const;

/** Each declaration by name: a read names one (`settings.duration(QUEUES_SETTINGS.x)`), never a bare key. */
export const QUEUES_SETTINGS = {
  deadLetterCountsTtl: durationSetting({
    key: QUEUES_SETTING_KEYS.deadLetterCountsTtl,
    description:
      'How long this process shares the brokers’ counts of a dead-letter or expiry queue between viewers of the Dead letters screen and API; a `queues` signal of the cluster (a depth moved, a redrive committed) ends it at once. 0s asks the brokers on every read.',
    defaultValue: '5s',
    min: '0s',
    max: '5m',
  }),
};

export const queuesSettings = Object.values(QUEUES_SETTINGS);
