// The bundle check's scope awareness and positions: a name bound by the bundle is its own business, the same name
// free is a global; each finding says where.
import { describe, expect, it } from 'vitest';
import { analyzeBundle } from './bundle-analysis.ts';

const codes = (source: string, requireActivate = false): string[] =>
  analyzeBundle('server.js', source, { requireActivate }).map((finding) => finding.code);

describe('analyzeBundle', () => {
  it.each([
    ['a parameter', 'export function f(process) { return process.env; }'],
    ['a function declaration, hoisted', 'export const x = () => fetch(1); function fetch(n) { return n; }'],
    ['a var hoisted out of a block', 'export function f() { { var fetch = 1; } return fetch; }'],
    ['a catch parameter', 'try { f(); } catch (global) { global.x; }'],
    ['a class name', 'class Worker { run() {} } export const w = new Worker();'],
    ['a destructured binding with a default', 'export function f({ a: [require = 1] }) { return require(2); }'],
    ['a named function expression', 'export const f = function module() { return module; };'],
    ['a for-of binding', 'for (const process of []) process.exit();'],
  ])('lets the bundle use a name it binds itself: %s', (_what, source) => {
    expect(codes(source)).toEqual([]);
  });

  it.each([
    ['property names', 'const o = { process: 1, eval: 2 }; export const x = o.process + o.eval;'],
    ['class constructors', 'export class A { constructor() { this.a = 1; } }'],
    ['everyday strings', "export const ok = (url) => url.startsWith('https') && url !== 'http' && 'fs.txt';"],
    ['computed lookups on its own objects', 'export const get = (o, k) => o[k];'],
  ])('does not flag %s', (_what, source) => {
    expect(codes(source)).toEqual([]);
  });

  it('flags a name bound only in another scope', () => {
    expect(codes('function f(process) {} export const x = process.env;')).toEqual(['bundle-denied-global']);
    expect(codes('{ const fetch = 1; } fetch(2);')).toEqual(['bundle-denied-global']);
  });

  it('says where, as entry:line:column', () => {
    const [finding] = analyzeBundle('ui.js', 'const a = 1;\n  eval(a);\n', { requireActivate: false });
    expect(finding).toMatchObject({ code: 'bundle-denied-global', entry: 'ui.js' });
    expect(finding?.message).toMatch(/^ui\.js:2:3: /);
  });

  it('reads escaped identifiers and keys as what they are', () => {
    expect(codes('\\u0065val("1");')).toEqual(['bundle-denied-global']);
    expect(codes('export const f = (x) => x[`constructor`];')).toEqual(['bundle-constructor-access']);
    expect(codes('export const f = (x) => x.\\u0063onstructor;')).toEqual(['bundle-constructor-access']);
  });

  it('refuses what would load a module by name', () => {
    expect(codes("export const x = (load) => load('http');")).toEqual(['bundle-denied-module']);
    expect(codes('export const x = `node:worker_threads`;')).toEqual(['bundle-denied-module']);
    expect(codes("export const x = 'fs/promises';")).toEqual(['bundle-denied-module']);
  });

  it('requires activate of the server bundle only', () => {
    expect(codes('export async function activate(api) {}', true)).toEqual([]);
    expect(codes('const activate = async () => {}; export { activate };', true)).toEqual([]);
    expect(codes('export const start = 1;', true)).toEqual(['bundle-missing-activate']);
    expect(codes('export const start = 1;', false)).toEqual([]);
  });

  it('reports a parse error with its position', () => {
    const [finding] = analyzeBundle('server.js', 'export const = 1;', { requireActivate: true });
    expect(finding?.code).toBe('bundle-parse-error');
    expect(finding?.message).toContain('server.js:1:');
  });

  it('refuses, without throwing, a bundle nested deeper than the stack', () => {
    const deep = `export const x = ${'['.repeat(20_000)}${']'.repeat(20_000)};`;
    expect(['bundle-parse-error', 'bundle-too-complex']).toContain(codes(deep)[0]);
  });

  it('stops listing after fifty findings', () => {
    expect(codes('eval(1);\n'.repeat(80))).toHaveLength(50);
  });
});
