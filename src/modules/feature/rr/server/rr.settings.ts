// The rr module's runtime settings. rr_event rows are kept as long as broker events (events.retention).
import { durationSetting, integerSetting } from '@/modules/kernel/plugin/index.ts';

export const RR_SETTING_KEYS = {
  defaultDeadline: 'rr.default-deadline',
  orphanReplyGrace: 'rr.orphan-reply-grace',
  sampleInterval: 'rr.sample.interval',
  temporaryQueuePoll: 'rr.temporary-queue-poll',
  maxAwaiting: 'rr.max-awaiting',
  reaperInterval: 'rr.reaper-interval',
  remaskInterval: 'rr.remask-interval',
} as const;

/** Each declaration by name: a read names one (`settings.duration(RR_SETTINGS.x)`), never a bare key. */
export const RR_SETTINGS = {
  defaultDeadline: durationSetting({
    key: RR_SETTING_KEYS.defaultDeadline,
    description:
      'How long a request waits for its reply when it carries no expiration and its address has no declared expectation.',
    defaultValue: '30s',
    min: '100ms',
    max: '1d',
  }),
  orphanReplyGrace: durationSetting({
    key: RR_SETTING_KEYS.orphanReplyGrace,
    description:
      'How long a reply that matches no request is held before it counts as ORPHANED_REPLY (its request may still be on its way).',
    defaultValue: '2s',
    min: '100ms',
    max: '5m',
  }),
  sampleInterval: durationSetting({
    key: RR_SETTING_KEYS.sampleInterval,
    description:
      'How often the correlator browses the request and reply addresses that no capture tap feeds. A message that comes and goes between two browses is not seen.',
    defaultValue: '1s',
    min: '200ms',
    max: '1h',
  }),
  temporaryQueuePoll: durationSetting({
    key: RR_SETTING_KEYS.temporaryQueuePoll,
    description:
      'How often the counters of the temporary reply queues with a waiting request are read (a reply to a temporary queue is seen only this way).',
    defaultValue: '500ms',
    min: '100ms',
    max: '1m',
  }),
  maxAwaiting: integerSetting({
    key: RR_SETTING_KEYS.maxAwaiting,
    description:
      'How many requests may wait for a reply at once per cluster; past it the oldest is settled as TIMED_OUT, with a note.',
    defaultValue: 200_000,
    min: 100,
    max: 5_000_000,
  }),
  reaperInterval: durationSetting({
    key: RR_SETTING_KEYS.reaperInterval,
    description: 'How often correlations older than events.retention are deleted.',
    defaultValue: '10m',
    min: '10s',
    max: '1d',
  }),
  remaskInterval: durationSetting({
    key: RR_SETTING_KEYS.remaskInterval,
    description:
      'How often stored correlations masked by an older content policy are masked again with the policy in force, in batches.',
    defaultValue: '30s',
    min: '1s',
    max: '1h',
  }),
};

export const rrSettings = Object.values(RR_SETTINGS);
