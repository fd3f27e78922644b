// Typed setting declarations. A module declares its keys with these builders in its descriptor; the settings
// kernel stores, validates and distributes the values. Values are JSON: durations are strings such as "72h".

type SettingKind = 'duration' | 'integer' | 'boolean' | 'string';
export type SettingValue = string | number | boolean;

/**
 * One declared setting. Its kind is in its type, so a read names the declaration itself
 * (`settings.duration(auditRetention)`): a misspelt name or a read of the wrong kind is a compile error, not a
 * runtime surprise. Without a kind it is any of the four, told apart by `kind`.
 */
export type SettingDeclaration<Kind extends SettingKind = SettingKind> = Kind extends SettingKind
  ? DeclarationOfKind<Kind>
  : never;

/**
 * Reads declared settings, each by its declaration. Only the module declaring a setting holds its declaration; code
 * that holds just a key (the settings screen, a job's `everySetting`) looks the declaration up first.
 */
export interface SettingsReader {
  duration(setting: SettingDeclaration<'duration'>): number;
  integer(setting: SettingDeclaration<'integer'>): number;
  boolean(setting: SettingDeclaration<'boolean'>): boolean;
  string(setting: SettingDeclaration<'string'>): string;
}

interface DeclarationOfKind<Kind extends SettingKind> {
  readonly key: string;
  readonly kind: Kind;
  readonly description: string;
  readonly defaultValue: SettingValue;
  /** The rule in words, used in every validation error: "a duration from 1s to 30d, such as 72h". */
  readonly rule: string;
  /** `runtime` values apply at once in every process; `restart` values (startup properties) at the next start. */
  readonly appliesAt: 'runtime' | 'restart';
  readonly isValid: (value: unknown) => boolean;
}

const DURATION_PATTERN = /^(\d{1,9})(ms|s|m|h|d)$/;
const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Milliseconds of a duration such as "90s", "5m", "72h"; undefined when it is not one. */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = DURATION_PATTERN.exec(value.trim());
  if (!match) return undefined;
  const [, amount, unit] = match as unknown as [string, string, keyof typeof UNIT_MS];
  return Number(amount) * UNIT_MS[unit];
}

interface Common {
  key: string;
  description: string;
  appliesAt?: 'runtime' | 'restart';
}

export function durationSetting(
  options: Common & { defaultValue: string; min: string; max: string },
): SettingDeclaration<'duration'> {
  const min = parseDuration(options.min);
  const max = parseDuration(options.max);
  if (min === undefined || max === undefined || parseDuration(options.defaultValue) === undefined) {
    throw new Error(`Setting ${options.key}: min, max and default must be durations such as 5s or 72h`);
  }
  return {
    key: options.key,
    kind: 'duration',
    description: options.description,
    defaultValue: options.defaultValue,
    rule: `a duration from ${options.min} to ${options.max} written as a number and a unit (ms, s, m, h, d), such as ${options.defaultValue}`,
    appliesAt: options.appliesAt ?? 'runtime',
    isValid: (value) => {
      const ms = parseDuration(value);
      return ms !== undefined && ms >= min && ms <= max;
    },
  };
}

export function integerSetting(
  options: Common & { defaultValue: number; min: number; max: number },
): SettingDeclaration<'integer'> {
  return {
    key: options.key,
    kind: 'integer',
    description: options.description,
    defaultValue: options.defaultValue,
    rule: `a whole number from ${options.min} to ${options.max}`,
    appliesAt: options.appliesAt ?? 'runtime',
    isValid: (value) =>
      typeof value === 'number' && Number.isInteger(value) && value >= options.min && value <= options.max,
  };
}

export function booleanSetting(options: Common & { defaultValue: boolean }): SettingDeclaration<'boolean'> {
  return {
    key: options.key,
    kind: 'boolean',
    description: options.description,
    defaultValue: options.defaultValue,
    rule: 'true or false',
    appliesAt: options.appliesAt ?? 'runtime',
    isValid: (value) => typeof value === 'boolean',
  };
}

export function stringSetting(
  options: Common & { defaultValue: string; pattern: RegExp; patternInWords: string },
): SettingDeclaration<'string'> {
  return {
    key: options.key,
    kind: 'string',
    description: options.description,
    defaultValue: options.defaultValue,
    rule: options.patternInWords,
    appliesAt: options.appliesAt ?? 'runtime',
    isValid: (value) => typeof value === 'string' && options.pattern.test(value),
  };
}
