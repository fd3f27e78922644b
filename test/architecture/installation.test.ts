// The installation folder is the one list of what is installed: every module folder's descriptor, every router
// file and every UI contribution file under src/modules must be wired there, or the module is silently missing.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appRouter } from '../../src/installation/app-router.ts';
import { installedModules } from '../../src/installation/modules.ts';

const root = path.resolve(import.meta.dirname, '../..');
const modulesRoot = path.join(root, 'src/modules');

function filesUnder(directory: string, pattern: RegExp): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((file) => pattern.test(file))
    .map((file) => path.posix.join('src/modules', file.split(path.sep).join('/')));
}

const moduleFolders = ['kernel', 'platform', 'feature'].flatMap((layer) =>
  readdirSync(path.join(modulesRoot, layer)).map((id) => ({ layer, id })),
);

describe('the installation folder', () => {
  it('installs every module folder', () => {
    expect(installedModules.map((module) => module.id).sort()).toEqual(moduleFolders.map(({ id }) => id).sort());
  });

  it('composes every router file into the application router', async () => {
    // Composing copies a router's record but keeps its procedures, so their identity tells whether a file is wired.
    const composed = new Set<unknown>(Object.values(appRouter._def.procedures));
    const missing: string[] = [];
    for (const file of filesUnder(modulesRoot, /\.router\.ts$/)) {
      const exports = (await import(path.join(root, file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exports)) {
        const procedures = (value as { _def?: { procedures?: object } } | undefined)?._def?.procedures ?? {};
        const wired = Object.values(procedures).length > 0 && Object.values(procedures).every((p) => composed.has(p));
        if (name.endsWith('Router') && !wired) missing.push(`${file}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
    expect(filesUnder(modulesRoot, /\.router\.ts$/).length).toBeGreaterThan(10);
  });

  it('wires every ui/contributions.ts into the installed UI', () => {
    const wiring = readFileSync(path.join(root, 'src/installation/ui.ts'), 'utf8');
    const contributionFiles = filesUnder(modulesRoot, /(^|\/)ui\/contributions\.tsx?$/);
    expect(contributionFiles.length).toBeGreaterThan(5);
    const unwired = contributionFiles.filter((file) => !wiring.includes(`'@/${file.slice('src/'.length)}'`));
    expect(unwired).toEqual([]);
  });
});
