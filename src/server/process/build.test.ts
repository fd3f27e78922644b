// When `npm start` builds: Next.js's output and every child's bundle must exist and be newer than every watched source.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isBuildCurrent, SERVER_PROCESSES, serverBundle } from './build.ts';

let root: string;
const BUILT_AT = new Date('2026-12-07T08:00:00Z');
const BEFORE = new Date('2026-12-07T07:00:00Z');
const AFTER = new Date('2026-12-07T09:00:00Z');

function writeAt(relative: string, at: Date): void {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '');
  utimesSync(file, at, at);
  // A folder's own time counts as a change too: the folders written into are dated before the build.
  for (let folder = path.dirname(file); folder.startsWith(root); folder = path.dirname(folder)) {
    utimesSync(folder, BEFORE, BEFORE);
  }
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'flotilla-build-'));
  writeAt('src/server/process/web-main.ts', BEFORE);
  writeAt('worker/main.ts', BEFORE);
  writeAt('.next/BUILD_ID', BUILT_AT);
  for (const name of SERVER_PROCESSES) writeAt(serverBundle(name), BUILT_AT);
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('isBuildCurrent', () => {
  it('is current when the web build and every bundle are newer than the sources', () => {
    expect(isBuildCurrent(root)).toBe(true);
  });

  it('builds again when a child’s bundle is missing (a build that stopped after next build)', () => {
    rmSync(path.join(root, serverBundle('worker')));
    expect(isBuildCurrent(root)).toBe(false);
  });

  it('builds again when the worker’s own entry changed after the build (it is bundled too)', () => {
    writeAt('worker/services.ts', AFTER);
    expect(isBuildCurrent(root)).toBe(false);
  });

  it('builds again when a bundle is older than a source changed after it', () => {
    writeAt('src/base/env.ts', new Date('2026-12-07T08:30:00Z'));
    writeAt(serverBundle('web'), new Date('2026-12-07T08:15:00Z'));
    writeAt('.next/BUILD_ID', AFTER);
    expect(isBuildCurrent(root)).toBe(false);
  });

  it('does not build again for a changed test file', () => {
    writeAt('worker/main.test.ts', AFTER);
    expect(isBuildCurrent(root)).toBe(true);
  });

  it('names one bundle per process the supervisor starts, inside Next.js’s output folder', () => {
    expect(SERVER_PROCESSES.map((name) => serverBundle(name))).toEqual([
      '.next/flotilla/web-main.mjs',
      '.next/flotilla/worker-main.mjs',
      '.next/flotilla/database-main.mjs',
    ]);
  });
});
