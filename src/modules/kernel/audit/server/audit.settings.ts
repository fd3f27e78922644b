// The audit module's settings. Its code reads each by its declaration here, so a misspelt name or a read
// of the wrong kind is a compile error.
import { durationSetting, integerSetting } from '@/modules/kernel/plugin/index.ts';

export const AUDIT_SETTINGS = {
  retention: durationSetting({
    key: 'audit.retention',
    description: 'How long audit rows are kept before the retention job deletes them.',
    defaultValue: '365d',
    min: '1d',
    max: '3650d',
  }),
  retentionSweepInterval: durationSetting({
    key: 'audit.retention-sweep-interval',
    description: 'How often the retention job looks for audit rows past their retention.',
    defaultValue: '1h',
    min: '1s',
    max: '1d',
  }),
  interruptedSweepInterval: durationSetting({
    key: 'audit.interrupted-sweep-interval',
    description:
      'How often the worker looks for PENDING audit rows whose process ended (kill -9, a crash) and finishes them ' +
      'as INTERRUPTED; it also looks a few seconds after it starts.',
    defaultValue: '30s',
    min: '1s',
    max: '1h',
  }),
  floodWindow: durationSetting({
    key: 'audit.flood-window',
    description:
      'The window refusals are counted in: one DENIED row per principal, route, reason and cluster in each, and ' +
      'the span audit.flood-rows applies to.',
    defaultValue: '15m',
    min: '1s',
    max: '1d',
  }),
  floodRows: integerSetting({
    key: 'audit.flood-rows',
    description:
      'Failed, refused, dry-run and denied audit rows one principal may cause in one audit.flood-window; past it their ' +
      'changes are refused (429 audit-flood) until the window ends, so no signed-in caller can flood the log.',
    defaultValue: 500,
    min: 10,
    max: 1_000_000,
  }),
};
