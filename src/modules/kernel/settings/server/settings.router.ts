import { z } from 'zod';
import { moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { pageOf, parseSort } from '@/modules/kernel/core/index.ts';
import {
  listSettingsInput,
  listSettingsOutput,
  settingChangeSchema,
  settingHistoryInput,
  settingHistoryOutput,
  settingKeyInput,
  settingViewSchema,
  updateSettingInput,
} from './settings.schema.ts';
import { settingHistory } from './settings-history.ts';
import { requireSettingView, resetSetting, updateSetting } from './settings.service.ts';

const procedure = moduleProcedure('settings');

export const settingsRouter = router({
  list: procedure({ permission: 'settings:read' })
    .meta({ openapi: { method: 'GET', path: '/settings', tags: ['settings'], summary: 'List every declared setting' } })
    .input(listSettingsInput)
    .output(listSettingsOutput)
    .query(({ ctx, input }) => {
      const needle = input.q?.toLowerCase();
      const matching = ctx.runtime.settings
        .list()
        .filter((setting) => !input.module || setting.module === input.module)
        .filter((setting) => !needle || `${setting.key} ${setting.description}`.toLowerCase().includes(needle));
      const { field, direction } = parseSort<'key' | 'module'>(input.sort);
      const sign = direction === 'asc' ? 1 : -1;
      matching.sort((a, b) => sign * a[field].localeCompare(b[field]) || a.key.localeCompare(b.key));
      const start = (input.page - 1) * input.pageSize;
      return pageOf(matching.slice(start, start + input.pageSize), matching.length, input.page, input.pageSize);
    }),

  get: procedure({ permission: 'settings:read' })
    .meta({ openapi: { method: 'GET', path: '/settings/{key}', tags: ['settings'], summary: 'Read one setting' } })
    .input(settingKeyInput)
    .output(settingViewSchema)
    .query(({ ctx, input }) => requireSettingView(ctx.runtime.settings, input.key)),

  history: procedure({ permission: 'settings:read' })
    .meta({
      openapi: {
        method: 'GET',
        path: '/settings/{key}/history',
        tags: ['settings'],
        summary: 'A setting’s changes, newest first (who, when, from → to; dry runs excluded), from the audit log',
      },
    })
    .input(settingHistoryInput)
    .output(settingHistoryOutput)
    .query(({ ctx, input }) => settingHistory(ctx.runtime, input)),
  update: procedure({ permission: 'settings:write' })
    .meta({
      openapi: {
        method: 'PUT',
        path: '/settings/{key}',
        tags: ['settings'],
        summary: 'Change a setting (audited; runtime settings reach every process within a second)',
      },
    })
    .input(updateSettingInput)
    .output(settingChangeSchema)
    .mutation(({ ctx, input }) =>
      updateSetting(ctx.runtime, ctx.request, { key: input.key, value: input.value, dryRun: input.dryRun }),
    ),

  reset: procedure({ permission: 'settings:write' })
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/settings/{key}',
        tags: ['settings'],
        summary: 'Reset a setting to its default (audited; every process follows within a second)',
      },
    })
    .input(settingKeyInput.extend({ dryRun: z.boolean().default(false) }))
    .output(settingChangeSchema)
    .mutation(({ ctx, input }) => resetSetting(ctx.runtime, ctx.request, input)),
});
