import { describe, expect, it } from 'vitest';
import type { DatabaseBus } from '@/base/db/bus.ts';
import { defineModule, type ModuleDefinition } from './descriptor.ts';
import { contribution, createExtensionPoint } from './extension-point.ts';
import { resolveModules, StartupError } from './registry.ts';
import { buildManifest } from './server/manifest.ts';
import { durationSetting } from './setting-types.ts';

const kernel = (id: string, extra: Partial<ModuleDefinition> = {}) =>
  defineModule({ id, title: id, layer: 'kernel', description: '', ...extra });
const platform = (id: string, extra: Partial<ModuleDefinition> = {}) =>
  defineModule({ id, title: id, layer: 'platform', description: '', ...extra });
const feature = (id: string, extra: Partial<ModuleDefinition> = {}) =>
  defineModule({ id, title: id, layer: 'feature', description: '', ...extra });

const modules = [
  kernel('core', { apiPrefixes: ['/api/v1/openapi.json'] }),
  kernel('audit', { requires: ['core'], permissions: [{ id: 'audit:read', description: '', includedIn: 'operator' }] }),
  platform('mcp', { requires: ['core'], mcp: [{ name: 'flotilla_help', kind: 'tool' }] }),
  feature('queues', {
    requires: ['audit'],
    topics: ['queues'],
    apiPrefixes: ['/api/v1/clusters/queues', '/api/v1/queues'],
    permissions: [{ id: 'queue:read', description: 'Read queues', includedIn: 'viewer' }],
    settings: [durationSetting({ key: 'queues.refresh', description: '', defaultValue: '5s', min: '1s', max: '1h' })],
  }),
  feature('triage', { requires: ['queues'], topics: ['alerts'], apiPrefixes: ['/api/v1/clusters'] }),
  feature('rr', { requires: ['queues'], apiPrefixes: ['/api/v1/clusters/{clusterId}/rr'] }),
];

const none = { environment: {}, stored: new Map<string, unknown>() };

function startupProblems(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof StartupError) return [...error.problems];
    throw error;
  }
  throw new Error('expected start-up to fail');
}

describe('resolveModules', () => {
  it('loads every module when nothing is toggled', () => {
    const registry = resolveModules(modules, none);
    expect(registry.modules.every((module) => module.enabled && module.toggleSource === 'default')).toBe(true);
    expect(registry.get('queues')?.enablingProperty).toBe('flotilla.features.queues.enabled');
  });

  it('turns a feature off from the environment, hyphens and dots becoming underscores', () => {
    const withHyphen = [...modules, feature('identity-oidc')];
    const registry = resolveModules(withHyphen, {
      environment: { FLOTILLA_FEATURES_IDENTITY_OIDC_ENABLED: 'false', FLOTILLA_FEATURES_TRIAGE_ENABLED: 'FALSE' },
      stored: new Map(),
    });
    expect(registry.isEnabled('identity-oidc')).toBe(false);
    expect(registry.isEnabled('triage')).toBe(false);
    expect(registry.get('triage')?.toggleSource).toBe('environment');
  });

  it('reads the startup property stored in flotilla_setting, and the environment wins over it', () => {
    const stored = new Map<string, unknown>([['flotilla.features.triage.enabled', false]]);
    expect(resolveModules(modules, { environment: {}, stored }).get('triage')).toMatchObject({
      enabled: false,
      toggleSource: 'database',
    });
    const overridden = resolveModules(modules, { environment: { FLOTILLA_FEATURES_TRIAGE_ENABLED: 'true' }, stored });
    expect(overridden.get('triage')).toMatchObject({ enabled: true, toggleSource: 'environment' });
  });

  it('refuses to disable a kernel or platform module, naming the property', () => {
    const problems = startupProblems(() =>
      resolveModules(modules, { environment: { FLOTILLA_FEATURES_AUDIT_ENABLED: 'false' }, stored: new Map() }),
    );
    const refusal = problems.find((problem) => problem.includes('is required and cannot be disabled'));
    expect(refusal).toContain('flotilla.features.audit.enabled');
    expect(refusal).toContain('FLOTILLA_FEATURES_AUDIT_ENABLED');
  });

  it('lets the mcp platform module be disabled', () => {
    const registry = resolveModules(modules, {
      environment: { FLOTILLA_FEATURES_MCP_ENABLED: 'false' },
      stored: new Map(),
    });
    expect(registry.isEnabled('mcp')).toBe(false);
  });

  it('fails when an enabled feature requires a disabled one, naming both', () => {
    const problems = startupProblems(() =>
      resolveModules(modules, { environment: { FLOTILLA_FEATURES_QUEUES_ENABLED: 'false' }, stored: new Map() }),
    );
    expect(problems.join('\n')).toMatch(/"triage" requires "queues".*flotilla\.features\.queues\.enabled=false/);
  });

  it('rejects a toggle that is not true or false', () => {
    const problems = startupProblems(() =>
      resolveModules(modules, { environment: { FLOTILLA_FEATURES_TRIAGE_ENABLED: 'no' }, stored: new Map() }),
    );
    expect(problems[0]).toContain('FLOTILLA_FEATURES_TRIAGE_ENABLED');
  });

  it('warns about toggles that name no installed module', () => {
    const registry = resolveModules(modules, {
      environment: { FLOTILLA_FEATURES_NOPE_ENABLED: 'false' },
      stored: new Map([['flotilla.features.ghost.enabled', false]]),
    });
    expect(registry.warnings).toHaveLength(2);
  });

  it('reports undeclared targets, upward layer dependencies, cycles and duplicate declarations', () => {
    const broken = [
      kernel('core', { requires: ['queues'] }),
      feature('queues', { requires: ['routing', 'missing'], topics: ['queues'] }),
      feature('routing', { requires: ['queues'], topics: ['queues'] }),
    ];
    const problems = startupProblems(() => resolveModules(broken, none)).join('\n');
    expect(problems).toContain('kernel module "core" must not depend on feature module "queues"');
    expect(problems).toContain('requires "missing", which is not installed');
    expect(problems).toContain('cycle');
    expect(problems).toContain('stream topic "queues" is declared twice');
  });
});

describe('ModuleRegistry', () => {
  const registry = resolveModules(modules, {
    environment: { FLOTILLA_FEATURES_TRIAGE_ENABLED: 'false' },
    stored: new Map(),
  });

  it('finds the owner of a path by its longest API prefix', () => {
    expect(registry.ownerOfPath('/api/v1/clusters/queues/x')?.descriptor.id).toBe('queues');
    expect(registry.ownerOfPath('/api/v1/clusters/42/alerts')?.descriptor.id).toBe('triage');
    expect(registry.ownerOfPath('/api/v1/queuesXYZ')).toBeUndefined();
    // A `{name}` segment matches any one segment and beats the shorter literal prefix.
    expect(registry.ownerOfPath('/api/v1/clusters/42/rr/expectations')?.descriptor.id).toBe('rr');
    expect(registry.ownerOfPath('/api/v1/clusters/42/rr')?.descriptor.id).toBe('rr');
    expect(registry.ownerOfPath('/api/v1/clusters/42/rrx')?.descriptor.id).toBe('triage');
    expect(registry.ownerOfPath('/api/v1/clusters//rr')?.descriptor.id).toBe('triage');
    expect(registry.ownerOfPath('/api/v1/settings')).toBeUndefined();
  });

  it('offers only enabled modules’ topics and settings, plus every toggle', () => {
    expect([...registry.enabledTopics()]).toEqual(['queues']);
    const keys = registry.settingDeclarations().map((setting) => setting.key);
    expect(keys).toContain('queues.refresh');
    expect(keys).toContain('flotilla.features.triage.enabled');
    expect(keys).toContain('flotilla.features.mcp.enabled');
    expect(keys).not.toContain('flotilla.features.core.enabled');
  });

  it('lists the whole permission catalogue, marking disabled modules', () => {
    expect(registry.permissionCatalogue()).toEqual([
      { id: 'audit:read', description: '', includedIn: 'operator', module: 'audit', enabled: true },
      { id: 'queue:read', description: 'Read queues', includedIn: 'viewer', module: 'queues', enabled: true },
    ]);
  });
});

describe('extension points', () => {
  const checks = createExtensionPoint<{ id: string }>({ id: 'audit.checks', owner: 'audit', cardinality: 'many' });
  const locator = createExtensionPoint<{ id: string }>({ id: 'audit.locator', owner: 'audit', cardinality: 'one' });
  const owner = kernel('audit', { requires: ['core'], extensionPoints: [checks, locator] });

  it('hands the owner what enabled modules contribute, in module order', () => {
    const registry = resolveModules(
      [
        kernel('core'),
        owner,
        feature('queues', { requires: ['audit'], contributions: [contribution(checks, { id: 'depth' })] }),
        feature('rr', { requires: ['audit'], contributions: [contribution(checks, { id: 'replies' })] }),
      ],
      { environment: { FLOTILLA_FEATURES_RR_ENABLED: 'false' }, stored: new Map() },
    );
    expect(registry.contributionsTo(checks)).toEqual([{ moduleId: 'queues', value: { id: 'depth' } }]);
    expect(registry.contributionsTo(locator)).toEqual([]);
  });

  it('refuses contributions to undeclared points, from modules not requiring the owner, and a second one', () => {
    const stray = createExtensionPoint<{ id: string }>({ id: 'routing.rules', owner: 'routing', cardinality: 'many' });
    const problems = startupProblems(() =>
      resolveModules(
        [
          kernel('core', { extensionPoints: [checks] }),
          owner,
          feature('queues', { requires: ['audit'], contributions: [contribution(locator, { id: 'a' })] }),
          feature('rr', {
            requires: ['core'],
            contributions: [contribution(locator, { id: 'b' }), contribution(stray, { id: 'c' })],
          }),
        ],
        none,
      ),
    );
    expect(problems).toEqual([
      'module "core" declares extension point "audit.checks" owned by "audit"',
      'module "rr" contributes to "audit.locator" but neither requires nor uses its owner "audit"',
      'module "rr" contributes to "routing.rules", which no installed module declares',
      'extension point "audit.locator" takes one contribution, but queues, rr each contribute',
    ]);
  });
});

describe('contributions to a used module', () => {
  it('are taken while the owner is installed, and dropped without a word when it is not', () => {
    const listeners = createExtensionPoint<{ id: string }>({ id: 'sql.listeners', owner: 'sql', cardinality: 'many' });
    const withOwner = resolveModules(
      [
        kernel('core'),
        feature('sql', { requires: ['core'], extensionPoints: [listeners] }),
        feature('rr', { requires: ['core'], uses: ['sql'], contributions: [contribution(listeners, { id: 'rr' })] }),
      ],
      none,
    );
    expect(withOwner.contributionsTo(listeners)).toEqual([{ moduleId: 'rr', value: { id: 'rr' } }]);
    const withoutOwner = resolveModules(
      [
        kernel('core'),
        feature('rr', { requires: ['core'], uses: ['sql'], contributions: [contribution(listeners, { id: 'rr' })] }),
      ],
      none,
    );
    expect(withoutOwner.contributionsTo(listeners)).toEqual([]);
  });

  it('still refuses a point its installed owner does not declare', () => {
    const typo = createExtensionPoint<{ id: string }>({ id: 'sql.listener', owner: 'sql', cardinality: 'many' });
    const problems = startupProblems(() =>
      resolveModules(
        [
          kernel('core'),
          feature('sql', { requires: ['core'] }),
          feature('rr', { requires: ['core'], uses: ['sql'], contributions: [contribution(typo, { id: 'rr' })] }),
        ],
        none,
      ),
    );
    expect(problems).toEqual(['module "rr" contributes to "sql.listener", which no installed module declares']);
  });
});

describe('the manifest', () => {
  it('says which modules can be turned off: features and mcp, not kernel or other platform modules', async () => {
    // No module here contributes runtime permissions, so nothing reads the bus.
    const manifest = await buildManifest(resolveModules(modules, none), {} as DatabaseBus);
    const canBeDisabled = Object.fromEntries(manifest.modules.map((module) => [module.id, module.canBeDisabled]));
    expect(canBeDisabled).toEqual({ core: false, audit: false, mcp: true, queues: true, triage: true, rr: true });
  });
});
