// Docs that cannot drift: the endpoint table (docs/endpoints.md) is what the procedures render and lists exactly the
// OpenAPI document's operations; the extension-point table of docs/adding-a-module.md names exactly the points the
// installed modules declare.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveModules } from '../../src/modules/kernel/plugin/registry.ts';
import { installedModules } from '../../src/installation/modules.ts';
import { buildOpenApiDocument } from '../../src/server/http/openapi.ts';
import { currentEndpointsDocument, endpoints, renderEndpointsDocument } from '../../scripts/docs-endpoints.ts';

const registry = resolveModules(installedModules, { environment: {}, stored: new Map() });
const docs = (name: string) => readFileSync(path.resolve(import.meta.dirname, '../../docs', name), 'utf8');

describe('docs/endpoints.md', () => {
  it('is what `npm run docs:endpoints` renders from the procedures', async () => {
    const rendered = await renderEndpointsDocument();
    expect(currentEndpointsDocument(), 'docs/endpoints.md is stale: run `npm run docs:endpoints`').toBe(rendered);
  });

  it('lists exactly the operations of the OpenAPI document', () => {
    const document = buildOpenApiDocument(registry) as unknown as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(document.paths).flatMap(([route, item]) =>
      Object.keys(item)
        .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => `${method.toUpperCase()} /api/v1${route}`),
    );
    const listed = endpoints().map((endpoint) => `${endpoint.method} ${endpoint.path}`);
    expect(listed.sort()).toEqual(operations.sort());
    expect(listed.length).toBeGreaterThan(60);
  });
});

describe('the extension points of docs/adding-a-module.md', () => {
  it('are exactly the points the installed modules declare', () => {
    const declared = registry.modules
      .flatMap((module) => module.descriptor.extensionPoints.map((point) => point.id))
      .sort();
    const section = docs('adding-a-module.md').split('| point (owner')[1]?.split('\n\n')[0] ?? '';
    const documented = [...section.matchAll(/^\| `([a-z-]+\.[a-z.-]+)`/gm)].map((match) => match[1]).sort();
    expect(documented).toEqual(declared);
  });
});
