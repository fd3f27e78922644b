import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterFolderFor } from './embedded-postgres.ts';

let parent: string;

beforeAll(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'flotilla-folder-'));
  await mkdir(path.join(parent, 'open', 'data'), { recursive: true });
  await mkdir(path.join(parent, 'private', 'data'), { recursive: true });
  await chmod(parent, 0o755);
  await chmod(path.join(parent, 'open'), 0o755);
  await chmod(path.join(parent, 'private'), 0o700);
});

afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

describe('the embedded cluster folder', () => {
  it('is the data folder’s own when the postgres user can reach it, or when not running as root', () => {
    expect(clusterFolderFor(path.join(parent, 'open', 'data'), true)).toBe(
      path.join(parent, 'open', 'data', 'postgres'),
    );
    expect(clusterFolderFor(path.join(parent, 'private', 'data'), false)).toBe(
      path.join(parent, 'private', 'data', 'postgres'),
    );
  });

  it('moves under /var/lib/flotilla, one folder per data folder, when a folder above is private to root', () => {
    const moved = clusterFolderFor(path.join(parent, 'private', 'data'), true);
    expect(moved).toMatch(/^\/var\/lib\/flotilla\/[0-9a-f]{12}\/postgres$/);
    expect(clusterFolderFor(path.join(parent, 'private', 'data'), true)).toBe(moved);
    expect(clusterFolderFor(path.join(parent, 'private', 'other'), true)).not.toBe(moved);
  });
});
