// The second fence (issue 33, runtime isolation): a bundle that slipped past static analysis with dynamic names still
// cannot read outside its folder, start processes or workers, reach native bindings, or open a connection — the last
// checked against a real listener on 127.0.0.1 that must see nothing.
import { spawn } from 'node:child_process';
import { link, symlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fixtureOptions,
  installFixture,
  isAlive,
  processesFor,
  removeFixtures,
  startFixture,
} from './fixtures/fixture-plugins.ts';
import { startPluginProcess } from './plugin-process.ts';
import { networkIsolation } from './sandbox.ts';

let listener: Server;
let connections = 0;
let port = 0;

beforeAll(async () => {
  listener = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => listener.close(resolve));
  await removeFixtures();
});

const REFUSED_BY_PERMISSION_MODEL = 'ERR_ACCESS_DENIED';
const REFUSED_BY_NETWORK_FENCE = 'ERR_PLUGIN_NETWORK_DENIED';
const REFUSED_BY_PROCESS_FENCE = 'ERR_PLUGIN_PROCESS_DENIED';

describe('a plugin trying to escape', () => {
  it('is refused every file, process, binding and network door, and the listener sees no connection', async () => {
    const { start, directory } = await startFixture('escaping', {
      allowed: { routes: [], jobs: [], tools: ['probe'] },
    });
    const plugin = await start;
    const probe = (await plugin.callTool('probe', {
      hostFile: path.resolve('package.json'),
      siblingFile: path.join(directory, '..', '..', 'other', '1.0.0', 'secret.txt'),
      ownFile: path.join(directory, 'data.txt'),
      port,
    })) as Record<string, string>;

    expect(probe).toEqual({
      readPasswd: REFUSED_BY_PERMISSION_MODEL,
      readHostRepo: REFUSED_BY_PERMISSION_MODEL,
      readSibling: REFUSED_BY_PERMISSION_MODEL,
      readOwnFolder: 'allowed',
      writeOwnFolder: REFUSED_BY_PERMISSION_MODEL,
      spawn: REFUSED_BY_PERMISSION_MODEL,
      execSync: REFUSED_BY_PERMISSION_MODEL,
      worker: REFUSED_BY_PERMISSION_MODEL,
      binding: REFUSED_BY_PROCESS_FENCE,
      linkedBinding: REFUSED_BY_PROCESS_FENCE,
      dlopen: REFUSED_BY_PROCESS_FENCE,
      kill: REFUSED_BY_PROCESS_FENCE,
      evalCode: 'EvalError',
      functionCode: 'EvalError',
      wasi: REFUSED_BY_PERMISSION_MODEL,
      inspector: REFUSED_BY_PERMISSION_MODEL,
      chdir: REFUSED_BY_PERMISSION_MODEL,
      netConnect: REFUSED_BY_NETWORK_FENCE,
      socketConnect: REFUSED_BY_NETWORK_FENCE,
      httpGet: REFUSED_BY_NETWORK_FENCE,
      fetch: 'absent',
      listen: REFUSED_BY_NETWORK_FENCE,
      serverListen: REFUSED_BY_NETWORK_FENCE,
      dns: REFUSED_BY_NETWORK_FENCE,
      udp: REFUSED_BY_NETWORK_FENCE,
      restoreConnect: 'TypeError',
      sendToHost: 'absent',
      // Nothing of the host's environment (no DATABASE_URL); node removes the IPC channel's variables once read.
      environment: 'NODE_ENV',
    });
    expect(connections).toBe(0);
    await plugin.stop();
    expect(isAlive(plugin.pid)).toBe(false);
  });

  it('is not started from a folder holding a link out of it, which the permission model would follow', async () => {
    for (const [make, kind] of [
      [(directory: string) => symlink('/etc/passwd', path.join(directory, 'passwd')), /symbolic link: .*passwd$/],
      [(directory: string) => link(path.join(directory, 'data.txt'), path.join(directory, 'again.txt')), /hard links/],
    ] as const) {
      const directory = await installFixture('escaping');
      await make(directory);
      await expect(
        startPluginProcess({ ...fixtureOptions(directory), allowed: { routes: [], jobs: [], tools: ['probe'] } }),
      ).rejects.toThrow(kind);
      expect(await processesFor(directory)).toEqual([]);
    }
  });

  it('has no network at all below the fence where a network namespace is available', async () => {
    const { network, prefix } = await networkIsolation();
    if (network === 'patched') return; // no unshare here: the fence above is all there is
    const [command, ...args] = [...prefix, process.execPath];
    const script = `require('node:net').connect(${port}, '127.0.0.1').on('connect', () => process.exit(0)).on('error', (e) => { console.log(e.code); process.exit(2); })`;
    const child = spawn(command, [...args, '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { NODE_ENV: 'test' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(output.trim()).toMatch(/^(ENETUNREACH|ECONNREFUSED|EADDRNOTAVAIL)$/);
    expect(connections).toBe(0);
  });
});
