// A setting's change history, read from the audit rows its changes leave (setting.update, setting.reset): who, when,
// from → to; dry runs and failures are not changes. A runtime plugin's setting changed before its settings moved into
// this store was audited as `plugin.setting` (target `<plugin> <key>`, only the new value), and is shown too.
import type { PrismaClient } from '@/base/db/database.ts';
import { auditTrail } from '@/modules/kernel/audit/index.ts';
import { pageOf } from '@/modules/kernel/core/index.ts';
import type { SettingValue } from '@/modules/kernel/plugin/index.ts';
import type { SettingsStore } from './settings-store.ts';
import { requireSettingView } from './settings.service.ts';

export interface SettingHistoryEntry {
  readonly at: string;
  readonly actor: string;
  readonly action: string;
  /** Null where the row did not say (a `plugin.setting` row kept only the new value). */
  readonly from: SettingValue | null;
  readonly to: SettingValue | null;
}

const valueOf = (value: unknown): SettingValue | null =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;

export async function settingHistory(
  dependencies: { readonly prisma: PrismaClient; readonly settings: SettingsStore },
  input: { key: string; page: number; pageSize: number },
) {
  const view = requireSettingView(dependencies.settings, input.key);
  const of = [{ actions: ['setting.update', 'setting.reset'], target: view.key }];
  if (view.declaredBy) of.push({ actions: ['plugin.setting'], target: `${view.declaredBy} ${view.key}` });
  const { entries, total } = await auditTrail(dependencies.prisma, of, input);
  const items = entries.map((entry): SettingHistoryEntry => {
    const parameters = (entry.parameters ?? {}) as Record<string, unknown>;
    const legacy = entry.action === 'plugin.setting';
    return {
      at: entry.at.toISOString(),
      actor: entry.actor,
      action: entry.action,
      from: legacy ? null : valueOf(parameters.from),
      to: valueOf(legacy ? parameters.value : parameters.to),
    };
  });
  return pageOf(items, total, input.page, input.pageSize);
}
