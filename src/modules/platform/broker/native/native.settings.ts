// Settings of the native (AMQP) side of the broker module. Owned by the native client.
import type { SettingDeclaration } from '../../../kernel/plugin/setting-types.ts';

export const nativeSettings: readonly SettingDeclaration[] = [];
