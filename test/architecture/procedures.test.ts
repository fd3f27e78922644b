// Every procedure names its module and its access rule; REST paths sit under their module's API prefixes so the
// feature gate covers them; permissions come from the catalogue.
import { describe, expect, it } from 'vitest';
import { resolveModules } from '../../src/modules/kernel/plugin/registry.ts';
import { installedModules } from '../../src/server/modules/installed-modules.ts';
import { appRouter } from '../../src/server/trpc/app-router.ts';
import type { ProcedureMeta } from '../../src/server/trpc/init.ts';

const registry = resolveModules(installedModules, { environment: {}, stored: new Map() });
const procedures = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: { meta?: ProcedureMeta } }>,
);
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
