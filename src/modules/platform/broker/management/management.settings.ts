// Settings of the management (Jolokia) side of the broker module. Owned by the management client.
import type { SettingDeclaration } from '../../../kernel/plugin/setting-types.ts';

export const managementSettings: readonly SettingDeclaration[] = [];
