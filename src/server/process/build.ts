// "Builds if needed": a production build is made when there is none or when a source file is newer than it. The build
// is Next.js's (the web app) and then the server bundles (ADR 39): the supervisor's children, each bundled into one
// file, so a start loads them with plain Node instead of transpiling hundreds of modules through tsx.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { logger } from '@/base/log/log.ts';

const log = logger('supervisor');

const WATCHED = ['src', 'worker', 'next.config.mjs', 'package-lock.json', 'tsconfig.json'];

// Tests live beside the code but are not part of the build; editing one must not force a rebuild.
const NOT_BUILT = /\.test\.tsx?$/;

/** Where the server bundles go: inside Next.js's output folder, so `next build` clears the previous build's bundles. */
export const SERVER_BUNDLE_FOLDER = path.join('.next', 'flotilla');

/** The processes the supervisor starts: each one's source entry, bundled by `npm run build` into its own file. */
export const SERVER_ENTRIES = {
  web: 'src/server/process/web-main.ts',
  worker: 'worker/main.ts',
  database: 'src/server/process/database-main.ts',
} as const;

export type ServerProcess = keyof typeof SERVER_ENTRIES;

export const SERVER_PROCESSES = Object.keys(SERVER_ENTRIES) as ServerProcess[];

/** The file name a process's bundle has (`web-main`, `worker-main`, `database-main`), without its extension. */
export const bundleName = (name: ServerProcess) => `${name}-main`;

/** A process's bundle, relative to the project folder. */
export function serverBundle(name: ServerProcess): string {
  return path.join(SERVER_BUNDLE_FOLDER, `${bundleName(name)}.mjs`);
}

function newestChange(entry: string): number {
  if (!existsSync(entry) || NOT_BUILT.test(entry)) return 0;
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(entry).reduce(
    (newest, name) => Math.max(newest, newestChange(path.join(entry, name))),
    stats.mtimeMs,
  );
}

/** Current when Next.js's build and every server bundle exist and no watched source changed after the oldest of them. */
export function isBuildCurrent(root: string): boolean {
  const outputs = [
    path.join(root, '.next', 'BUILD_ID'),
    ...SERVER_PROCESSES.map((name) => path.join(root, serverBundle(name))),
  ];
  if (!outputs.every((output) => existsSync(output))) return false;
  const builtAt = Math.min(...outputs.map((output) => statSync(output).mtimeMs));
  return WATCHED.every((entry) => newestChange(path.join(root, entry)) <= builtAt);
}

export function buildIfNeeded(root: string): void {
  if (isBuildCurrent(root)) return;
  log.info('building the web app and the server bundles (first start or sources changed)…');
  // Next.js's own build output is for a person, not a log line: it goes to standard error, so standard output
  // stays one JSON object per line.
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) throw new Error('the build failed; see the output above');
}
