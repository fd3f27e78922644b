// The SQL module's runtime settings: the console's bounds (each one reached is reported in words), the index's
// retention, and the capture taps' shape on the broker.
import { durationSetting, integerSetting } from '@/modules/kernel/plugin/index.ts';

export const SQL_SETTING_KEYS = {
  targetCap: 'sql.target-cap',
  scanCap: 'sql.scan-cap',
  rowCap: 'sql.row-cap',
  timeout: 'sql.timeout',
  indexRetention: 'sql.index.retention',
  indexMaintenanceInterval: 'sql.index.maintenance-interval',
  captureRingSize: 'sql.capture.ring-size',
  captureExpiryDelay: 'sql.capture.expiry-delay',
  captureReconcileInterval: 'sql.capture.reconcile-interval',
  captureBufferSize: 'sql.capture.buffer-size',
  sampleInterval: 'sql.sample.interval',
} as const;

/** Each declaration by name: a read names one (`settings.duration(SQL_SETTINGS.x)`), never a bare key. */
export const SQL_SETTINGS = {
  targetCap: integerSetting({
    key: SQL_SETTING_KEYS.targetCap,
    description: 'How many (node, queue) targets one live query reads at most; the rest are named as not read.',
    defaultValue: 64,
    min: 1,
    max: 10_000,
  }),
  scanCap: integerSetting({
    key: SQL_SETTING_KEYS.scanCap,
    description: 'How many messages (or index rows) one query examines at most before it stops and says so.',
    defaultValue: 20_000,
    min: 100,
    max: 5_000_000,
  }),
  rowCap: integerSetting({
    key: SQL_SETTING_KEYS.rowCap,
    description: 'How many rows one query returns at most, whatever its LIMIT.',
    defaultValue: 1_000,
    min: 1,
    max: 100_000,
  }),
  timeout: durationSetting({
    key: SQL_SETTING_KEYS.timeout,
    description: 'How long one query may run before it stops and returns what it has, saying so.',
    defaultValue: '15s',
    min: '1s',
    max: '5m',
  }),
  indexRetention: durationSetting({
    key: SQL_SETTING_KEYS.indexRetention,
    description: 'How long message_index rows are kept; whole day partitions older than this are dropped.',
    defaultValue: '72h',
    min: '1h',
    max: '90d',
  }),
  indexMaintenanceInterval: durationSetting({
    key: SQL_SETTING_KEYS.indexMaintenanceInterval,
    description: 'How often message_index partitions ahead are made and expired ones dropped.',
    defaultValue: '10m',
    min: '10s',
    max: '1d',
  }),
  captureRingSize: integerSetting({
    key: SQL_SETTING_KEYS.captureRingSize,
    description: 'Messages a capture queue holds at most on the broker (its ring size) while the service drains it.',
    defaultValue: 10_000,
    min: 10,
    max: 10_000_000,
  }),
  captureExpiryDelay: durationSetting({
    key: SQL_SETTING_KEYS.captureExpiryDelay,
    description: 'How long a copy may wait in a capture queue before the broker drops it (no expiry address).',
    defaultValue: '10m',
    min: '10s',
    max: '7d',
  }),
  captureReconcileInterval: durationSetting({
    key: SQL_SETTING_KEYS.captureReconcileInterval,
    description: 'How often the capture reconciler compares desired taps with each live node’s diverts.',
    defaultValue: '15s',
    min: '1s',
    max: '1h',
  }),
  captureBufferSize: integerSetting({
    key: SQL_SETTING_KEYS.captureBufferSize,
    description:
      'Captured messages the worker holds before writing; a full buffer stops acknowledging (the broker keeps them).',
    defaultValue: 20_000,
    min: 100,
    max: 1_000_000,
  }),
  sampleInterval: durationSetting({
    key: SQL_SETTING_KEYS.sampleInterval,
    description:
      'How often a sampled subscription browses its queue; a queue draining faster than this is invisible to it.',
    defaultValue: '15s',
    min: '1s',
    max: '1h',
  }),
};

export const sqlSettings = Object.values(SQL_SETTINGS);
