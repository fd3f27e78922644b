// "Builds if needed": a production build is made when there is none or when a source file is newer than it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { logger } from '@/base/log/log.ts';

const log = logger('supervisor');

const WATCHED = ['src', 'next.config.mjs', 'package-lock.json', 'tsconfig.json'];

// Tests live beside the code but are not part of the build; editing one must not force a rebuild.
const NOT_BUILT = /\.test\.tsx?$/;

function newestChange(entry: string): number {
  if (!existsSync(entry) || NOT_BUILT.test(entry)) return 0;
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(entry).reduce(
    (newest, name) => Math.max(newest, newestChange(path.join(entry, name))),
    stats.mtimeMs,
  );
}

export function isBuildCurrent(root: string): boolean {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  if (!existsSync(buildId)) return false;
  const builtAt = statSync(buildId).mtimeMs;
  return WATCHED.every((entry) => newestChange(path.join(root, entry)) <= builtAt);
}

export function buildIfNeeded(root: string): void {
  if (isBuildCurrent(root)) return;
  log.info('building the web app (first start or sources changed)…');
  // Next.js's own build output is for a person, not a log line: it goes to standard error, so standard output
  // stays one JSON object per line.
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) throw new Error('the build failed; see the output above');
}
