import { describe, expect, it } from 'vitest';
import { booleanSetting, durationSetting, integerSetting } from '@/modules/kernel/plugin/index.ts';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { RuntimeSetting } from './runtime-declarations.ts';
import { SettingsStore, type DeclaredSetting } from './settings-store.ts';

const retention = durationSetting({
  key: 'audit.retention',
  description: 'keep',
  defaultValue: '365d',
  min: '1d',
  max: '3650d',
});
const bulkCap = integerSetting({
  key: 'safety.bulk-cap',
  description: 'cap',
  defaultValue: 1000,
  min: 1,
  max: 100_000,
});

function storeWith(environment: Record<string, string> = {}) {
  const declared = new Map<string, DeclaredSetting>([
    [
      'audit.retention',
      {
        module: 'audit',
        declaration: retention,
      },
    ],
    [
      'safety.bulk-cap',
      {
        module: 'messages',
        declaration: bulkCap,
      },
    ],
    [
      'flotilla.features.sql.enabled',
      {
        module: 'sql',
        startupValue: true,
        declaration: booleanSetting({
          key: 'flotilla.features.sql.enabled',
          description: '',
          defaultValue: true,
          appliesAt: 'restart',
        }),
      },
    ],
  ]);
  return new SettingsStore(declared, environment);
}

const row = (key: string, value: unknown) => ({
  key,
  value,
  updatedAt: new Date('2026-11-01T00:00:00Z'),
  updatedBy: 'alice',
});

describe('SettingsStore', () => {
  it('answers defaults until the database says otherwise', () => {
    const store = storeWith();
    expect(store.duration(retention)).toBe(365 * 86_400_000);
    store.replaceAll([row('audit.retention', '30d')]);
    expect(store.duration(retention)).toBe(30 * 86_400_000);
    expect(store.view('audit.retention')).toMatchObject({ value: '30d', source: 'database', updatedBy: 'alice' });
  });

  it('ignores a stored value that breaks the rule and keeps the default', () => {
    const store = storeWith();
    store.replaceAll([row('safety.bulk-cap', -5)]);
    expect(store.integer(bulkCap)).toBe(1000);
  });

  it('tells listeners only about real changes', () => {
    const store = storeWith();
    const seen: string[] = [];
    store.onChange('safety.bulk-cap', (key) => seen.push(key));
    store.replaceOne('safety.bulk-cap', row('safety.bulk-cap', 50));
    store.replaceOne('safety.bulk-cap', row('safety.bulk-cap', 50));
    store.replaceAll([row('safety.bulk-cap', 50)]);
    store.replaceAll([]);
    expect(seen).toEqual(['safety.bulk-cap', 'safety.bulk-cap']);
  });

  it('refuses reads of undeclared keys or of the wrong kind', () => {
    const store = storeWith();
    const undeclared = durationSetting({ key: 'nope', description: '', defaultValue: '1s', min: '1s', max: '1h' });
    expect(() => store.duration(undeclared)).toThrow(/No module declares/);
    // A read names the declaration, so the wrong kind does not compile; forced through, it still throws.
    // @ts-expect-error audit.retention is a duration, not an integer
    expect(() => store.integer(retention)).toThrow(/is a duration/);
  });

  it('shows a restart setting’s stored value beside the one in effect, and an environment override', () => {
    const store = storeWith({ FLOTILLA_FEATURES_SQL_ENABLED: 'true' });
    store.replaceAll([row('flotilla.features.sql.enabled', false)]);
    expect(store.view('flotilla.features.sql.enabled')).toMatchObject({
      value: false,
      inEffect: true,
      appliesAt: 'restart',
      source: 'environment',
      overriddenBy: 'FLOTILLA_FEATURES_SQL_ENABLED',
    });
  });

  it('lists every declared setting sorted by key', () => {
    expect(
      storeWith()
        .list()
        .map((view) => view.key),
    ).toEqual(['audit.retention', 'flotilla.features.sql.enabled', 'safety.bulk-cap']);
  });

  it('knows runtime settings while their source lists them, stores them apart, and lets a module’s key win', async () => {
    const running: RuntimeSetting[] = [
      { key: 'audit.retention', kind: 'integer', description: 'shadowed', defaultValue: 1, source: 'audit' },
      { key: 'naming.pattern', kind: 'string', description: 'pattern', defaultValue: '^a$', source: 'naming' },
    ];
    const declared = new Map<string, DeclaredSetting>([
      ['audit.retention', { module: 'audit', declaration: retention }],
    ]);
    const source = { id: 'plugins', load: () => Promise.resolve(() => running) };
    const store = new SettingsStore(declared, {}, [{ moduleId: 'plugins', value: source }]);
    await store.followRuntimeDeclarations({} as DatabaseBus);
    expect(store.list().map((view) => [view.key, view.module, view.declaredBy])).toEqual([
      ['audit.retention', 'audit', null],
      ['naming.pattern', 'plugins', 'naming'],
    ]);
    store.replaceAll([row('runtime:naming.pattern', '^b$'), row('naming.pattern', '^not-its-row$')]);
    expect(store.value('naming.pattern')).toBe('^b$');
    expect(store.runtimeValue(running[1] as RuntimeSetting)).toBe('^b$');
    store.replaceAll([row('runtime:naming.pattern', 42)]); // not a string: the default applies
    expect(store.value('naming.pattern')).toBe('^a$');
    running.pop(); // its source stopped
    expect(store.view('naming.pattern')).toBeUndefined();
  });
});
