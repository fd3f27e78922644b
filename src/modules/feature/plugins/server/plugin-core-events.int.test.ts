// Core events for runtime plugins, on a real database bus and real plugin processes: a plugin hears the core topics
// its manifest lists (api.events.on) from the moment it runs to the moment it stops, nothing it did not list, one
// delivery at a time with waiting signals coalesced; a plugin cannot listen to a topic its manifest leaves out.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishSignal, webStreamOf } from '@/modules/kernel/stream/index.ts';
import { packPluginFolder } from '../pack/pack-folder.ts';
import { eventually } from '@test/eventually.ts';
import { callRest, type RestCall } from '@test/rest-call.ts';
import { servingWithGateway } from '@test/plugin-kit.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { TEST_ADMIN } from '@test/sign-in.ts';

const password = TEST_ADMIN.password;
let dataDir: string;
let secured: SecuredRuntime;
let call: RestCall;

interface Seen {
  readonly topic: string;
  readonly clusterId: string;
  readonly at: string;
}

// Keeps what it hears; the handler of `queues` takes 300 ms, so signals offered meanwhile wait and coalesce.
const LISTENER = `
const seen = [];
export async function activate(api) {
  api.events.on('queues', async (event) => {
    seen.push(event);
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
  api.events.on('topology', async (event) => { seen.push(event); });
  api.routes.add('GET', '/seen', async () => ({ body: { seen } }));
}
`;

async function upload(id: string, server: string, coreEvents: readonly string[]) {
  const folder = path.join(dataDir, 'sources', id);
  await mkdir(folder, { recursive: true });
  const manifest = {
    id,
    name: `Test plugin ${id}`,
    version: '1.0.0',
    description: 'A plugin the tests write.',
    sdk: 1,
    activation: 'instant',
    server: 'server.js',
    permissions: [{ id: `${id}:use`, description: 'Use it', includedIn: 'viewer' }],
    routes: [{ method: 'GET', path: '/seen', permission: `${id}:use`, cluster: false }],
    coreEvents: coreEvents.map((topic) => ({ topic, description: `Hears ${topic}` })),
  };
  await writeFile(path.join(folder, 'plugin.json'), JSON.stringify(manifest));
  await writeFile(path.join(folder, 'server.js'), server);
  const archive = Buffer.from((await packPluginFolder(folder)).bytes).toString('base64');
  return call<{ type?: string; findings?: { code: string; message: string }[] }>('POST', '/plugins', {
    archive,
    password,
  });
}

const seenBy = async (id: string) => (await call<{ seen: Seen[] }>('GET', `/p/${id}/seen`)).json.seen;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-core-events-'));
  secured = await openSecuredRuntime({ environment: { FLOTILLA_DATA_DIR: dataDir } });
  const send = servingWithGateway(secured.runtime);
  const { auth } = await secured.signedIn();
  call = (method, route, body, headers) => callRest(send, auth, method, route, body, { headers });
}, 60_000);

afterAll(async () => {
  await secured.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('core events for plugins', () => {
  it('refuse at upload a core topic Flotilla does not publish', async () => {
    const refused = await upload('wishful', 'export async function activate() {}', ['no-such-topic']);
    expect(refused).toMatchObject({ status: 422, json: { type: 'plugin-invalid' } });
    expect(refused.json.findings?.map((finding) => finding.code)).toEqual(['manifest-core-event-unknown']);
    expect(refused.json.findings?.[0]?.message).toContain('queues'); // it names the topics there are
  });

  it('deliver the listed topics of every cluster while the plugin runs, coalescing what waits', async () => {
    const { bus } = secured.runtime;
    const [one, two] = [randomUUID(), randomUUID()];
    const hub = webStreamOf(bus).hub;
    expect(hub.wants('queues', one)).toBe(false);
    expect(await upload('listener', LISTENER, ['queues', 'topology'])).toMatchObject({ status: 200 });
    expect(await call('POST', '/plugins/listener/activate', { password })).toMatchObject({ status: 200 });
    expect(hub.wants('queues', one)).toBe(true);
    expect(hub.wants('alerts', one)).toBe(false);

    await publishSignal(bus, 'queues', one); // in flight for 300 ms…
    for (let i = 0; i < 10; i++) await publishSignal(bus, 'queues', two); // …while these wait and coalesce
    await publishSignal(bus, 'alerts', one); // not listed: never delivered
    await publishSignal(bus, 'topology', two);
    const seen = await eventually(
      'the plugin heard queues and topology',
      async () => {
        const heard = await seenBy('listener');
        return heard.some((event) => event.topic === 'topology') ? heard : undefined;
      },
      15_000,
    );
    expect(seen.map((event) => [event.topic, event.clusterId])).toEqual([
      ['queues', one],
      ['queues', two],
      ['topology', two],
    ]);
    expect(seen.every((event) => !Number.isNaN(Date.parse(event.at)))).toBe(true);

    // Disabled, it is no longer asked: the hub wants the topic no more.
    expect(await call('POST', '/plugins/listener/disable', { password })).toMatchObject({
      json: { state: 'DISABLED' },
    });
    expect(hub.wants('queues', one)).toBe(false);
  }, 60_000);

  it('refuse a handler for a topic the manifest does not list: the plugin fails to start, saying why', async () => {
    expect(await upload('undeclared', LISTENER, ['queues'])).toMatchObject({ status: 200 });
    const activated = await call<{ detail?: string }>('POST', '/plugins/undeclared/activate', { password });
    expect(activated.status).toBeGreaterThanOrEqual(400);
    const shown = await call<{ state: string; lastError: string | null }>('GET', '/plugins/undeclared');
    expect(shown.json.state).toBe('FAILED');
    expect(shown.json.lastError).toMatch(/core event 'topology' is not declared/);
  }, 60_000);
});
