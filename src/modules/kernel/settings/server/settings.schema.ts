import { z } from 'zod';
import { listQuerySchema, listResultSchema } from '@/modules/kernel/core/index.ts';

const settingValue = z.union([z.string(), z.number(), z.boolean()]);

export const settingViewSchema = z.object({
  key: z.string(),
  module: z.string(),
  kind: z.enum(['duration', 'integer', 'boolean', 'string']),
  description: z.string(),
  rule: z.string(),
  appliesAt: z.enum(['runtime', 'restart']),
  value: settingValue,
  defaultValue: settingValue,
  source: z.enum(['default', 'database', 'environment']),
  inEffect: settingValue,
  overriddenBy: z.string().nullable(),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
  declaredBy: z.string().nullable().describe('The running plugin that declares it; null for a module’s setting'),
});

export const listSettingsInput = listQuerySchema(['key', 'module'], 'key').extend({
  module: z.string().optional().describe('Only the settings of this module'),
});
export const listSettingsOutput = listResultSchema(settingViewSchema);

export const settingKeyInput = z.object({ key: z.string().min(1).max(200) });

export const updateSettingInput = settingKeyInput.extend({
  // Checked against the setting's own rule by the service, so the error can name that rule.
  value: z.unknown().describe('The new value: a string for durations (e.g. "72h"), a number or a boolean'),
  dryRun: z.boolean().default(false).describe('Validate and audit without changing anything'),
});

export const settingChangeSchema = z.object({
  key: z.string(),
  previousValue: settingValue,
  value: settingValue,
  dryRun: z.boolean(),
  appliesAt: z.enum(['runtime', 'restart']),
  setting: settingViewSchema,
});

export const settingHistoryInput = settingKeyInput.extend({
  page: z.coerce.number().int().min(1).default(1).describe('1-based page number'),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});

export const settingHistoryOutput = listResultSchema(
  z.object({
    at: z.string(),
    actor: z.string(),
    action: z.string().describe('setting.update, setting.reset, or plugin.setting (before plugin settings moved here)'),
    from: settingValue.nullable(),
    to: settingValue.nullable(),
  }),
);
