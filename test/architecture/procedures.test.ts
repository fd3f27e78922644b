// Every procedure names its module and its access rule; REST paths sit under their module's API prefixes so the
// feature gate covers them; permissions come from the catalogue; every mutation honours or refuses a dry run.
import { describe, expect, it } from 'vitest';
import { resolveModules } from '../../src/modules/kernel/plugin/registry.ts';
import { installedModules } from '../../src/installation/modules.ts';
import { buildOpenApiDocument } from '../../src/server/http/openapi.ts';
import { appRouter } from '../../src/installation/app-router.ts';
import type { ProcedureMeta } from '../../src/modules/kernel/access/procedure.ts';

const registry = resolveModules(installedModules, { environment: {}, stored: new Map() });
type Procedure = { _def: { meta?: ProcedureMeta; type?: string; inputs?: unknown[] } };
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, Procedure>);
const catalogue = new Set(registry.permissionCatalogue().map((permission) => permission.id));

describe('procedures', () => {
  it('exist', () => {
    expect(procedures.length).toBeGreaterThan(0);
  });

  it.each(procedures)(
    '%s declares its module and a public, signed-in or permission rule from the catalogue',
    (_name, procedure) => {
      const meta = procedure._def.meta;
      expect(registry.get(meta?.module ?? '')).toBeDefined();
      const access = meta?.access;
      if (typeof access !== 'object') expect(['public', 'authenticated']).toContain(access);
      else if ('permission' in access) expect(catalogue.has(access.permission)).toBe(true);
      else expect(catalogue.has(access.clusterPermission)).toBe(true);
    },
  );

  it.each(procedures)('%s sits under its module’s key (the router is namespaced by module id)', (name, procedure) => {
    expect(name.split('.')[0]).toBe(procedure._def.meta?.module);
  });

  it.each(procedures)('%s names its cluster in the path when it is cluster-scoped', (_name, procedure) => {
    const meta = procedure._def.meta;
    if (typeof meta?.access !== 'object' || !('clusterPermission' in meta.access) || !meta.openapi) return;
    expect(meta.openapi.path).toMatch(/\{clusterId\}/);
  });

  it.each(procedures)('%s serves REST under its own module’s API prefix', (_name, procedure) => {
    const meta = procedure._def.meta;
    if (!meta?.openapi) return;
    const restPath = `/api/v1${meta.openapi.path.replace(/\{[^}]+\}/g, 'x')}`;
    expect(registry.ownerOfPath(restPath)?.descriptor.id).toBe(meta.module);
  });
});

describe('the dry-run contract', () => {
  const document = buildOpenApiDocument(registry) as unknown as {
    paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
  };
  const inputKeys = (procedure: Procedure) =>
    new Set(
      (procedure._def.inputs ?? []).flatMap((input) =>
        Object.keys((input as { shape?: object } | undefined)?.shape ?? {}),
      ),
    );
  const mutations = procedures.filter(([, procedure]) => procedure._def.type === 'mutation');

  it('covers the mutations', () => {
    expect(mutations.length).toBeGreaterThan(15);
  });

  it.each(mutations)(
    '%s honours dryRun (its input has it) or refuses it (meta), never ignores it',
    (_name, procedure) => {
      const honours = inputKeys(procedure).has('dryRun');
      const refuses = procedure._def.meta?.dryRun === 'refused';
      expect(honours !== refuses).toBe(true);
    },
  );

  it.each(mutations)(
    '%s advertises dryRun and override in OpenAPI exactly where its input takes them',
    (_name, procedure) => {
      const openapi = procedure._def.meta?.openapi;
      if (!openapi) return;
      const operation = document.paths[openapi.path]?.[openapi.method.toLowerCase()];
      const advertised = (operation?.parameters ?? [])
        .filter((parameter) => parameter.in === 'query')
        .map((p) => p.name);
      const keys = inputKeys(procedure);
      expect(advertised.includes('dryRun')).toBe(keys.has('dryRun'));
      expect(advertised.includes('override')).toBe(keys.has('override'));
    },
  );
});
