// What brokerconfig's services need of the process: the command sequence's runtime (database, bus, notifications)
// with settings read by declaration (management limits, the drift interval, the approval environments).
import type { SettingsReader } from '@/modules/kernel/plugin/index.ts';
import type { CommandRuntime } from '@/modules/platform/commands/index.ts';

export type ConfigRuntime = CommandRuntime & { readonly settings: CommandRuntime['settings'] & SettingsReader };
