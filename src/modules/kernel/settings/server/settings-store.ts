// Holds every declared setting's current value in memory, in each process. A change made anywhere is written to
// flotilla_setting and announced on the database bus; every process of every instance then re-reads that key and
// tells its listeners (e.g. the scheduler re-applies a job interval). Reads never touch the database.
import {
  environmentVariableFor,
  parseDuration,
  type SettingDeclaration,
  type SettingsReader,
  type SettingValue,
} from '@/modules/kernel/plugin/index.ts';
import type { DatabaseBus } from '@/base/db/bus.ts';
import { logger } from '@/base/log/log.ts';
import {
  runtimeSettingDeclaration,
  storedKeyOfRuntime,
  type RuntimeSetting,
  type RuntimeSettingSourceDeclaration,
} from './runtime-declarations.ts';

const log = logger('settings');

export const SETTINGS_CHANNEL = 'flotilla_settings';

type SettingSource = 'default' | 'database' | 'environment';

export interface StoredSetting {
  readonly key: string;
  readonly value: unknown;
  readonly updatedAt: Date;
  readonly updatedBy: string | null;
}

export interface SettingView {
  readonly key: string;
  readonly module: string;
  readonly kind: SettingDeclaration['kind'];
  readonly description: string;
  readonly rule: string;
  readonly appliesAt: SettingDeclaration['appliesAt'];
  /** The value stored or defaulted: what applies now (runtime) or at the next start (restart). */
  readonly value: SettingValue;
  readonly defaultValue: SettingValue;
  readonly source: SettingSource;
  /** What this process runs with; differs from `value` for a restart setting changed since start-up. */
  readonly inEffect: SettingValue;
  readonly overriddenBy: string | null;
  readonly updatedAt: string | null;
  readonly updatedBy: string | null;
  /** What declared it at runtime (a running plugin's id); null for a module's setting. */
  readonly declaredBy: string | null;
}

/** A setting's value from its stored row: the stored value when it is valid, else the default. */
export function effectiveValue(
  declaration: SettingDeclaration,
  stored: { readonly value: unknown } | null | undefined,
) {
  return stored && declaration.isValid(stored.value) ? (stored.value as SettingValue) : declaration.defaultValue;
}

export interface DeclaredSetting {
  readonly declaration: SettingDeclaration;
  readonly module: string;
  /** For restart settings: the value resolved at start-up, which stays in effect until the next start. */
  readonly startupValue?: SettingValue;
  /** A runtime setting's source (settings.runtime-declarations) and its row's key in flotilla_setting. */
  readonly runtime?: { readonly source: string; readonly storedKey: string };
}

type Listener = (key: string) => void;

/** A read names the declaration; a bare key only where a read is not converted yet (see SettingsReader). */
const keyOf = (setting: SettingDeclaration | string) => (typeof setting === 'string' ? setting : setting.key);

export class SettingsStore implements SettingsReader {
  private stored = new Map<string, StoredSetting>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private runtimeReaders: { readonly moduleId: string; readonly read: () => readonly RuntimeSetting[] }[] = [];

  constructor(
    private readonly declared: ReadonlyMap<string, DeclaredSetting>,
    private readonly environment: Readonly<Record<string, string | undefined>>,
    /** The contributions to settings.runtime-declarations, with the module that made each. */
    private readonly runtimeSources: readonly { moduleId: string; value: RuntimeSettingSourceDeclaration }[] = [],
  ) {}

  /** Reads the runtime declarations of this process (its bus's) from now on, each time they are asked for. */
  async followRuntimeDeclarations(bus: DatabaseBus): Promise<void> {
    this.runtimeReaders = await Promise.all(
      this.runtimeSources.map(async ({ moduleId, value }) => {
        const read = await value.load();
        return { moduleId, read: () => read(bus) };
      }),
    );
  }

  /** The runtime settings that exist now; a module's setting of the same key wins (the runtime one is not listed). */
  private runtimeDeclared(): Map<string, DeclaredSetting> {
    const found = new Map<string, DeclaredSetting>();
    for (const { moduleId, read } of this.runtimeReaders) {
      for (const setting of read()) {
        if (this.declared.has(setting.key) || found.has(setting.key)) continue;
        found.set(setting.key, {
          declaration: runtimeSettingDeclaration(setting),
          module: moduleId,
          runtime: { source: setting.source, storedKey: storedKeyOfRuntime(setting.key) },
        });
      }
    }
    return found;
  }

  declaration(key: string): DeclaredSetting | undefined {
    return this.declared.get(key) ?? this.runtimeDeclared().get(key);
  }

  /**
   * A runtime setting's value whether or not it is listed yet (a plugin reads its settings while it starts, before
   * its source lists it): a valid stored value, else its default.
   */
  runtimeValue(setting: RuntimeSetting): SettingValue {
    return this.valueOf({
      declaration: runtimeSettingDeclaration(setting),
      module: '',
      runtime: { source: setting.source, storedKey: storedKeyOfRuntime(setting.key) },
    });
  }

  /** Replaces everything held with what the database says (start-up and after a bus reconnect). */
  replaceAll(rows: readonly StoredSetting[]): void {
    const previous = this.stored;
    this.stored = new Map(rows.map((row) => [row.key, row]));
    for (const key of this.declared.keys()) {
      if (JSON.stringify(previous.get(key)?.value) !== JSON.stringify(this.stored.get(key)?.value)) this.emit(key);
    }
  }

  /** Applies one re-read row (undefined: the row is gone, the default applies again). */
  replaceOne(key: string, row: StoredSetting | undefined): void {
    const before = JSON.stringify(this.stored.get(key)?.value);
    if (row) this.stored.set(key, row);
    else this.stored.delete(key);
    if (before !== JSON.stringify(row?.value)) this.emit(key);
  }

  onChange(key: string, listener: Listener): () => void {
    const set = this.listeners.get(key) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(key, set);
    return () => set.delete(listener);
  }

  private emit(key: string): void {
    for (const listener of this.listeners.get(key) ?? []) {
      try {
        listener(key);
      } catch (error) {
        log.error({ err: error, key }, 'a settings listener failed');
      }
    }
  }

  /** The current value: a valid stored value, else the default. An invalid stored value is ignored, loudly once. */
  value(key: string): SettingValue {
    return this.valueOf(this.requireDeclared(key));
  }

  private storedOf(declared: DeclaredSetting): StoredSetting | undefined {
    return this.stored.get(declared.runtime?.storedKey ?? declared.declaration.key);
  }

  private valueOf(declared: DeclaredSetting): SettingValue {
    return effectiveValue(declared.declaration, this.storedOf(declared));
  }

  duration(setting: SettingDeclaration<'duration'> | string): number {
    const ms = parseDuration(this.typed(setting, 'duration'));
    if (ms === undefined) throw new Error(`Setting ${keyOf(setting)} holds no duration`);
    return ms;
  }

  integer(setting: SettingDeclaration<'integer'> | string): number {
    return this.typed(setting, 'integer') as number;
  }

  boolean(setting: SettingDeclaration<'boolean'> | string): boolean {
    return this.typed(setting, 'boolean') as boolean;
  }

  string(setting: SettingDeclaration<'string'> | string): string {
    return this.typed(setting, 'string') as string;
  }

  private typed(setting: SettingDeclaration | string, kind: SettingDeclaration['kind']): SettingValue {
    const key = keyOf(setting);
    const declared = this.requireDeclared(key);
    if (declared.declaration.kind !== kind)
      throw new Error(`Setting ${key} is a ${declared.declaration.kind}, not a ${kind}`);
    return this.valueOf(declared);
  }

  private requireDeclared(key: string): DeclaredSetting {
    const declared = this.declaration(key);
    if (!declared) throw new Error(`No module declares the setting ${key}`);
    return declared;
  }

  view(key: string): SettingView | undefined {
    const declared = this.declaration(key);
    return declared && this.viewOf(key, declared);
  }

  private viewOf(key: string, declared: DeclaredSetting): SettingView {
    const { declaration } = declared;
    const stored = this.storedOf(declared);
    const variable = environmentVariableFor(key);
    const fromEnvironment = declaration.appliesAt === 'restart' && this.environment[variable] ? variable : null;
    const value = this.valueOf(declared);
    return {
      key,
      module: declared.module,
      kind: declaration.kind,
      description: declaration.description,
      rule: declaration.rule,
      appliesAt: declaration.appliesAt,
      value,
      defaultValue: declaration.defaultValue,
      source: fromEnvironment ? 'environment' : stored ? 'database' : 'default',
      inEffect: declared.startupValue ?? value,
      overriddenBy: fromEnvironment,
      updatedAt: stored?.updatedAt.toISOString() ?? null,
      updatedBy: stored?.updatedBy ?? null,
      declaredBy: declared.runtime?.source ?? null,
    };
  }

  /** Every setting, the runtime ones read once (not once per key, as view() by key would). */
  list(): SettingView[] {
    const all = new Map([...this.declared, ...this.runtimeDeclared()]);
    return [...all.keys()].sort().map((key) => this.viewOf(key, all.get(key) as DeclaredSetting));
  }
}

// Procedures of the settings module list every declared setting from the process's store, so the module that owns
// the store puts it on the kernel's procedure runtime (access/procedure-context.ts).
declare module '../../access/procedure-context.ts' {
  interface ProcedureRuntime {
    readonly settings: SettingsStore;
  }
}
