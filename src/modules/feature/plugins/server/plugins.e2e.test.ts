// Plugins under the real supervisor, as `npm start` runs Flotilla: a Restart activation restarts the web process
// itself (a clean stop, a new process, the plugin running in it), and three web processes killed in a row bring the
// fourth up in safe mode, with every plugin off and the reason given, until an installer leaves it.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppPool, type AppProcess } from '@test/app-process.ts';
import { createTestDatabase, queryDatabase, type TestDatabase } from '@test/database.ts';
import { eventually } from '@test/eventually.ts';
import { httpClient, type RestCall } from '@test/rest-call.ts';
import { signIn, TEST_ADMIN } from '@test/sign-in.ts';
import { packPluginFolder } from '../pack/pack-folder.ts';

const WEB = 'web-main.mjs';
const password = TEST_ADMIN.password;
const pool = new AppPool();
let database: TestDatabase;
let dataDir: string;
let app: AppProcess;

async function signedInCall(): Promise<RestCall> {
  const auth = await signIn((request) => fetch(request), app.baseUrl);
  return httpClient(`${app.baseUrl}/api/v1`, auth);
}

async function packedRestartPlugin(): Promise<string> {
  const folder = path.join(dataDir, 'sources', 'restarter');
  await mkdir(folder, { recursive: true });
  await writeFile(
    path.join(folder, 'plugin.json'),
    JSON.stringify({
      id: 'restarter',
      name: 'Restarter',
      version: '1.0.0',
      description: 'Asks for a restart when activated.',
      sdk: 1,
      activation: 'restart',
      server: 'server.js',
      permissions: [{ id: 'restarter:use', description: 'Use it', includedIn: 'viewer' }],
      routes: [{ method: 'GET', path: '/hello', permission: 'restarter:use', cluster: false }],
    }),
  );
  await writeFile(
    path.join(folder, 'server.js'),
    "export async function activate(api) { api.routes.add('GET', '/hello', async () => ({ body: { hello: api.version } })); }\n",
  );
  return Buffer.from((await packPluginFolder(folder)).bytes).toString('base64');
}

/** The web child once it is a process other than `before` and its runtime has noted its boot. */
async function nextWebProcess(before: number, boots: number): Promise<number> {
  return eventually(
    'a new web process whose boot is noted',
    async () => {
      const web = app.childRunning(WEB);
      if (!web || web.pid === before) return undefined;
      const [row] = await queryDatabase<{ unclean_boots: number; running: boolean }>(
        database.url,
        'SELECT unclean_boots, running FROM plugin_boot',
      );
      return row?.running && row.unclean_boots === boots ? web.pid : undefined;
    },
    60_000,
    250,
  );
}

beforeAll(async () => {
  database = await createTestDatabase({ migrate: false });
  dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-plugins-e2e-'));
  app = await pool.startReady({ env: { DATABASE_URL: database.url, FLOTILLA_DATA_DIR: dataDir } });
}, 240_000);

afterAll(async () => {
  await pool.destroyAll();
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('plugins under the supervisor', () => {
  it('restart the web process for a Restart activation, which stops cleanly and comes back running the plugin', async () => {
    const first = await nextWebProcess(0, 0);
    const call = await signedInCall();
    expect(await call('POST', '/plugins', { archive: await packedRestartPlugin(), password })).toMatchObject({
      status: 200,
    });
    const activated = await call('POST', '/plugins/restarter/activate', { password });
    expect(activated).toMatchObject({ status: 200, json: { state: 'ACTIVE', restart: 'restarting' } });
    // A clean stop: the count of unclean boots stays at zero.
    const second = await nextWebProcess(first, 0);
    expect(second).not.toBe(first);
    const again = await signedInCall();
    const hello = await eventually(
      'the plugin answering in the new web process',
      async () => {
        const answer = await again('GET', '/p/restarter/hello');
        return answer.status === 200 ? answer.json : undefined;
      },
      30_000,
    );
    expect(hello).toEqual({ hello: '1.0.0' });
  }, 120_000);

  it('start in safe mode after three unclean ends in a row, and leave it on an installer’s word', async () => {
    let web = await nextWebProcess(0, 0);
    for (const boots of [1, 2, 3]) {
      process.kill(web, 'SIGKILL');
      web = await nextWebProcess(web, boots);
    }
    const call = await signedInCall();
    const listed = await call<{ safeMode: { safeMode: boolean; reason: string } }>('GET', '/plugins');
    expect(listed.json.safeMode.safeMode).toBe(true);
    expect(listed.json.safeMode.reason).toMatch(/last 3 starts/);
    expect(await call('GET', '/p/restarter/hello')).toMatchObject({ status: 404 });
    expect(app.findLog({ module: 'plugins', msg: /^safe mode/ })).toMatchObject({ level: 'warn' });
    expect(await call('POST', '/plugins/safe-mode/leave', { password })).toMatchObject({ status: 200 });
    await eventually(
      'the plugin running again',
      async () => ((await call('GET', '/p/restarter/hello')).status === 200 ? true : undefined),
      30_000,
    );
  }, 180_000);
});
