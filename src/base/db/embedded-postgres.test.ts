import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterFolderFor, findFreePort, lowestEphemeralPort } from './embedded-postgres.ts';

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

describe('a free port for a server that binds it later', () => {
  it('lies below the range the kernel gives outgoing connections, and can be listened on', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => findFreePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(15_000);
      expect(port).toBeLessThan(lowestEphemeralPort());
    }
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(ports[0], '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });
});
