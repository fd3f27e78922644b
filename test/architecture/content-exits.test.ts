// No exit of message content bypasses the content policy: every procedure whose answer carries content (a field
// named properties, headers or body, or one a sender or client chooses freely: a consumer's filter, a message's ids
// and reply address, at any depth) belongs to a router whose module reaches the governance
// module's entry, and every stream source of events governs what it sends. A new exit that forgets the policy
// fails here. The check reads the output schemas of the real app router and the sources of the modules.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appRouter } from '../../src/installation/app-router.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CONTENT_KEYS = new Set([
  'properties',
  'headers',
  'body',
  'filter',
  'messageId',
  'correlationId',
  'replyTo',
  'groupId',
]);
const GOVERNANCE_ENTRY = '@/modules/platform/governance/index.ts';

type Procedure = { _def: { output?: unknown } };
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, Procedure>);

interface ZodLike {
  readonly _zod?: { readonly def?: Record<string, unknown> };
}

/** The field names of an output schema, at any depth (objects, arrays, unions, optional, nullable, records…). */
function fieldNames(schema: unknown, seen = new Set<unknown>()): Set<string> {
  const names = new Set<string>();
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const def = (node as ZodLike)._zod?.def;
    if (!def) return;
    const shape = def.shape as Record<string, unknown> | undefined;
    for (const [key, child] of Object.entries(shape ?? {})) {
      names.add(key);
      walk(child);
    }
    for (const key of ['element', 'innerType', 'valueType', 'in', 'out', 'left', 'right']) walk(def[key]);
    for (const option of (def.options as unknown[] | undefined) ?? []) walk(option);
  };
  walk(schema);
  return names;
}

/** Router key → the module folder of its router file, from the installation's imports. */
function routerModules(): Map<string, string> {
  const source = readFileSync(path.join(ROOT, 'src/installation/app-router.ts'), 'utf8');
  const files = new Map<string, string>();
  for (const match of source.matchAll(/import \{ (\w+) \} from '@\/(modules\/[^']+)';/g)) {
    files.set(match[1] ?? '', (match[2] ?? '').split('/').slice(0, 3).join('/'));
  }
  const modules = new Map<string, string>();
  for (const match of source.matchAll(/^\s+([\w-]+): (\w+),$/gm))
    modules.set(match[1] ?? '', files.get(match[2] ?? '') ?? '');
  return modules;
}

function sourcesOf(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourcesOf(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [full] : [];
  });
}

const reachesGovernance = (moduleFolder: string) =>
  moduleFolder === 'modules/platform/governance' ||
  sourcesOf(path.join(ROOT, 'src', moduleFolder)).some((file) => readFileSync(file, 'utf8').includes(GOVERNANCE_ENTRY));

describe('every exit of message content goes through the content policy', () => {
  it('finds content fields in an output schema, however deep', () => {
    const events = procedures.find(([name]) => name === 'events.list');
    expect(fieldNames(events?.[1]._def.output).has('properties')).toBe(true);
    expect(fieldNames(procedures.find(([name]) => name === 'clusters.list')?.[1]._def.output).has('properties')).toBe(
      false,
    );
  });

  const modules = routerModules();
  const exits = procedures.filter(([, procedure]) =>
    [...fieldNames(procedure._def.output)].some((name) => CONTENT_KEYS.has(name)),
  );

  it('knows the exits of today (broker events, the governance tester, consumers and their filters)', () => {
    expect(exits.map(([name]) => name)).toEqual(
      expect.arrayContaining(['events.list', 'governance.test', 'resources.consumers']),
    );
  });

  it.each(exits)('%s answers content through the governance module', (name) => {
    const owner = modules.get(name.split('.')[0] ?? '') ?? '';
    expect(owner, `no router file found for ${name}`).not.toBe('');
    expect(reachesGovernance(owner)).toBe(true);
  });

  it('governs the events the stream sends and replays', () => {
    const source = readFileSync(path.join(ROOT, 'src/modules/feature/events/server/event-source.ts'), 'utf8');
    // Both the live read and the replay pass their rows through the governing helper before they are sent.
    expect(source).toMatch(/governEvents\(/);
    expect(source).toMatch(/governed\(await eventsInRange\(/);
    expect(source).toMatch(
      /const \{ events, truncated \} = await eventsAfter\([^)]*\);\s*return \{ events: await governed\(events\)/,
    );
  });
});
