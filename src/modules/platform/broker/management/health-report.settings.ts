// How often the worker reports what it holds of the brokers; the worker's report reads it by this declaration.
import { durationSetting } from '@/modules/kernel/plugin/index.ts';

export const reportIntervalSetting = durationSetting({
  key: 'broker.health.report-interval',
  description:
    'How often the worker reports what it holds of the brokers (node states, native connections) for health; ' +
    'a report older than two intervals shows the worker DOWN.',
  defaultValue: '5s',
  min: '100ms',
  max: '5m',
});

/** A worker whose report is older than this many of its intervals is gone (health shows it DOWN; it has no share). */
export const REPORT_INTERVALS_ALIVE = 2;
