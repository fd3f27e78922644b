// Docs that cannot drift: the endpoint table (docs/endpoints.md) is what the procedures render and lists exactly the
// OpenAPI document's operations; the extension-point table of docs/adding-a-module.md names exactly the points the
// installed modules declare; the problem-type table of docs/api.md lists exactly the types the code can answer.
//
// The problem types are read from the sources (problem-types.ts), not declared in a catalogue: a raise is a plain
// object literal wherever it is written (a ProblemError, a Problem constant, a helper's parameters), so the parser
// evaluates every literal of a problem's shape with its status, follows helpers to their callers, and reports what
// it cannot evaluate instead of skipping it. The one computed raise, the procedure kit's slug of a TRPCError's code,
// is derived from its status table and the codes tRPC and trpc-to-openapi raise. The table's `when` stays prose.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveModules } from '../../src/modules/kernel/plugin/registry.ts';
import { installedModules } from '../../src/installation/modules.ts';
import { buildOpenApiDocument } from '../../src/server/http/openapi.ts';
import { currentEndpointsDocument, endpoints, renderEndpointsDocument } from '../../scripts/docs-endpoints.ts';
import { ProblemScan, type RaisedProblem } from './problem-types.ts';

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

describe('the problem types of docs/api.md', () => {
  /** `type` → the statuses its rows give, from the table of the Errors section. */
  function documentedTypes(): Map<string, string> {
    const section = docs('api.md').split('## Errors')[1]?.split('\n## ')[0] ?? '';
    const rows = [...section.matchAll(/^\|\s*`([^`]+)`\s*\|([^|]+)\|/gm)];
    const documented = new Map<string, string>();
    for (const [, type = '', status = ''] of rows) {
      expect(documented.has(type), `docs/api.md lists ${type} twice`).toBe(false);
      documented.set(type, status.trim());
    }
    return documented;
  }

  it('are read from every form of raise, and what cannot be read is reported, not skipped', () => {
    const { raised, unresolved } = new ProblemScan(['test/architecture/fixtures/problems']).scan();
    const found = raised.map((problem) => `${problem.type} ${String(problem.status)} ${problem.site.split('/').pop()}`);
    expect(found.sort()).toEqual([
      'thing-gone 404 raise.ts:15',
      'thing-gone 410 raise.ts:15',
      'thing-invalid 400 raise.ts:13',
      'thing-limit 429 raise.ts:9',
      'thing-not-found 404 raise.ts:18',
      'thing-not-found 404 raise.ts:6',
      'thing-taken 409 raise.ts:14',
    ]);
    expect(unresolved.map((problem) => problem.within)).toEqual(['computed', 'refusal']);
  });

  it('lists exactly the types the code can raise, each with its status', { timeout: 60_000 }, () => {
    const scan = new ProblemScan();
    const { raised, unresolved } = scan.scan();
    // A type or status computed at run time cannot be checked against the table: only the one derived below may be.
    expect(unresolved.filter((site) => site.within !== 'problemFromError')).toEqual([]);
    expect(unresolved.length, 'problemFromError no longer computes a type: drop trpcCodeProblems').toBe(1);
    const sites = new Map<string, RaisedProblem[]>();
    for (const problem of [...raised, ...scan.trpcCodeProblems()])
      sites.set(problem.type, [...(sites.get(problem.type) ?? []), problem]);
    const statusOf = (type: string) =>
      [...new Set(sites.get(type)?.map((problem) => problem.status))].sort().join(', ');

    const documented = documentedTypes();
    const drift = {
      raisedButNotInTheTable: [...sites.keys()]
        .filter((type) => !documented.has(type))
        .map((type) => `${type} (${statusOf(type)}) at ${(sites.get(type) ?? []).map((p) => p.site).join(', ')}`),
      inTheTableButRaisedNowhere: [...documented.keys()].filter((type) => !sites.has(type)),
      statusDiffers: [...documented]
        .filter(([type, status]) => sites.has(type) && status !== statusOf(type))
        .map(([type, status]) => `${type}: the table says ${status}, the code raises it with ${statusOf(type)}`),
    };
    expect(drift, 'the problem table of docs/api.md differs from the code').toEqual({
      raisedButNotInTheTable: [],
      inTheTableButRaisedNowhere: [],
      statusDiffers: [],
    });
    expect(sites.size).toBeGreaterThan(40);
  });
});
