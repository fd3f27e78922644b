// Changing a setting: validate against the declaration, audit, store, then announce on the bus after commit.
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { PrismaClient } from '@/base/db/database.ts';
import { ProblemError, type RequestContext } from '@/modules/kernel/core/index.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import type { SettingValue } from '@/modules/kernel/plugin/index.ts';
import {
  effectiveValue,
  SETTINGS_CHANNEL,
  type DeclaredSetting,
  type SettingsStore,
  type SettingView,
} from './settings-store.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('settings');

export interface SettingsDependencies {
  readonly prisma: PrismaClient;
  readonly settings: SettingsStore;
  readonly bus: DatabaseBus;
}

export interface SettingChange {
  readonly key: string;
  readonly previousValue: SettingValue;
  readonly value: SettingValue;
  readonly dryRun: boolean;
  readonly appliesAt: SettingView['appliesAt'];
  readonly setting: SettingView;
}

function unknownSettingProblem(key: string): ProblemError {
  return new ProblemError({
    type: 'unknown-setting',
    title: 'Unknown setting',
    status: 404,
    detail: `No enabled module declares a setting named "${key}". GET /api/v1/settings lists them all.`,
    key,
  });
}

/**
 * The value a change replaces, resolved from the database row as the store resolves it (`effectiveValue`), not from
 * what this process holds: another instance's change may not have reached this one yet, and the audit row's `from`
 * must be the value the change ends.
 */
async function storedValueOf(
  prisma: PrismaClient,
  declared: DeclaredSetting,
  storedKey: string,
): Promise<SettingValue> {
  const row = await prisma.flotillaSetting.findUnique({ where: { key: storedKey }, select: { value: true } });
  return effectiveValue(declared.declaration, row);
}

export function requireSettingView(settings: SettingsStore, key: string): SettingView {
  const view = settings.view(key);
  if (!view) throw unknownSettingProblem(key);
  return view;
}

export async function updateSetting(
  dependencies: SettingsDependencies,
  request: RequestContext,
  input: { key: string; value: unknown; dryRun: boolean },
): Promise<SettingChange> {
  const { prisma, settings, bus } = dependencies;
  const declared = settings.declaration(input.key);
  if (!declared) throw unknownSettingProblem(input.key);
  const { declaration } = declared;
  if (!declaration.isValid(input.value)) {
    throw new ProblemError({
      type: 'invalid-setting',
      title: 'Invalid setting value',
      status: 400,
      detail: `${JSON.stringify(input.value)} is not a valid value for ${input.key}: it must be ${declaration.rule}.`,
      key: input.key,
      rule: declaration.rule,
      errors: [{ field: 'value', message: `must be ${declaration.rule}` }],
    });
  }
  const value = input.value as SettingValue;
  const storedKey = declared.runtime?.storedKey ?? input.key;
  const previousValue = await storedValueOf(prisma, declared, storedKey);
  await audited(
    prisma,
    request,
    {
      action: 'setting.update',
      target: input.key,
      parameters: { from: previousValue, to: value },
      dryRun: input.dryRun,
    },
    async (tx) => {
      if (!input.dryRun) {
        const row = {
          value,
          scope: declaration.appliesAt === 'restart' ? 'STARTUP' : 'RUNTIME',
          updatedAt: new Date(),
          updatedBy: request.actor.name,
        };
        await tx.flotillaSetting.upsert({ where: { key: storedKey }, create: { key: storedKey, ...row }, update: row });
      }
      return { result: undefined };
    },
  );
  if (!input.dryRun) {
    // Applied locally at once; the notification brings every other process (and this one again, harmlessly).
    settings.replaceOne(storedKey, { key: storedKey, value, updatedAt: new Date(), updatedBy: request.actor.name });
    // The value is stored; a process that misses this notice re-reads every setting when its bus reconnects.
    await bus
      .notify(SETTINGS_CHANNEL, storedKey)
      .catch((error: unknown) => log.error({ err: error, key: input.key }, 'cannot announce the change'));
  }
  return {
    key: input.key,
    previousValue,
    value,
    dryRun: input.dryRun,
    appliesAt: declaration.appliesAt,
    setting: requireSettingView(settings, input.key),
  };
}

/**
 * Forgets the stored value so the default applies again (audited as `setting.reset`, with the value it ends). The
 * other processes hear it like any change and re-read the key, finding nothing stored.
 */
export async function resetSetting(
  dependencies: SettingsDependencies,
  request: RequestContext,
  input: { key: string; dryRun: boolean },
): Promise<SettingChange> {
  const { prisma, settings, bus } = dependencies;
  const declared = settings.declaration(input.key);
  if (!declared) throw unknownSettingProblem(input.key);
  const { declaration } = declared;
  const storedKey = declared.runtime?.storedKey ?? input.key;
  const previousValue = await storedValueOf(prisma, declared, storedKey);
  await audited(
    prisma,
    request,
    {
      action: 'setting.reset',
      target: input.key,
      parameters: { from: previousValue, to: declaration.defaultValue },
      dryRun: input.dryRun,
    },
    async (tx) => {
      if (!input.dryRun) await tx.flotillaSetting.deleteMany({ where: { key: storedKey } });
      return { result: undefined };
    },
  );
  if (!input.dryRun) {
    settings.replaceOne(storedKey, undefined);
    await bus
      .notify(SETTINGS_CHANNEL, storedKey)
      .catch((error: unknown) => log.error({ err: error, key: input.key }, 'cannot announce the change'));
  }
  return {
    key: input.key,
    previousValue,
    value: declaration.defaultValue,
    dryRun: input.dryRun,
    appliesAt: declaration.appliesAt,
    setting: requireSettingView(settings, input.key),
  };
}
