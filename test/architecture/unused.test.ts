// knip (`npm run lint:unused`) fails on a fixture with an unused file, export and type, and passes over what is used.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from './cruise.ts';

const fixture = path.join(import.meta.dirname, 'fixtures/unused');
const knip = path.join(repositoryRoot, 'node_modules/.bin/knip');

interface KnipFileIssues {
  readonly file: string;
  readonly files: readonly { name: string }[];
  readonly exports: readonly { name: string }[];
  readonly types: readonly { name: string }[];
}

// knip in a process of its own: about a second alone, and once 7.7 s beside a full run's brokers (past the unit
// project's 5 s for a test; the unit project has no retry).
const KNIP_TIMEOUT_MS = 60_000;

describe('knip', () => {
  it('reports the unused file, export and type of the fixture, and fails', { timeout: KNIP_TIMEOUT_MS }, () => {
    const run = spawnSync(knip, ['--directory', fixture, '--reporter', 'json', '--no-progress'], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    const { issues } = JSON.parse(run.stdout) as { issues: KnipFileIssues[] };
    const reported = issues.flatMap(({ file, files, exports, types }) =>
      [...files, ...exports, ...types].map(({ name }) => `${file}:${name}`),
    );
    expect(reported.sort()).toEqual(['helpers.ts:NeverImported', 'helpers.ts:unused', 'orphan.ts:orphan.ts']);
  });
});
