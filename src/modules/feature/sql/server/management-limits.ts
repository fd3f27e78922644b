// The per-node management limits as the worker's settings give them (the broker's limiter reads them per call).
import type { SettingsReader } from '@/modules/kernel/plugin/index.ts';
import { MANAGEMENT_SETTINGS, type ManagementLimits } from '@/modules/platform/broker/index.ts';

export function managementLimitsOf(settings: SettingsReader): ManagementLimits {
  return {
    maxConcurrentCalls: settings.integer(MANAGEMENT_SETTINGS.maxConcurrentCalls),
    maxCallsPerSecond: settings.integer(MANAGEMENT_SETTINGS.maxCallsPerSecond),
    timeoutMs: settings.duration(MANAGEMENT_SETTINGS.timeout),
  };
}
