// A plugin process's normal life: activation, every kind of call in both directions, refused registrations, a failed
// or hung activation, and a clean stop, with the child gone afterwards each time.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  isAlive,
  processesFor,
  removeFixtures,
  startFixture,
  WELL_BEHAVED_ALLOWED,
} from './fixtures/fixture-plugins.ts';
import { DEFAULT_PLUGIN_LIMITS } from './limits.ts';
import type { PluginExit, PluginProcess, PluginResponse } from './plugin-process.ts';

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => process.on('unhandledRejection', onUnhandled));
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await removeFixtures();
});
afterEach(() => expect(unhandled).toEqual([]));

const user = { id: 'u1', name: 'Ada', permissions: ['plugins.well-behaved.read'] };

describe('a well-behaved plugin', () => {
  let plugin: PluginProcess;
  let recorded: Awaited<ReturnType<typeof startFixture>>['recorded'];

  beforeAll(async () => {
    const started = await startFixture('well-behaved', {
      allowed: WELL_BEHAVED_ALLOWED,
      limits: { callTimeoutMs: 1_500 },
    });
    recorded = started.recorded;
    plugin = await started.start;
  });

  it('activates, registers what it declared and logs through the host', () => {
    expect(plugin.pid).toBeGreaterThan(0);
    expect(isAlive(plugin.pid)).toBe(true);
    expect(plugin.registered).toEqual(WELL_BEHAVED_ALLOWED);
    expect(recorded.logs).toContainEqual({ level: 'info', message: 'activating', fields: { version: '1.0.0' } });
    expect(['namespace', 'patched']).toContain(plugin.isolation.network);
  });

  it('answers a route with its captures, the host’s answer and a setting', async () => {
    const response = await plugin.handleRoute({ method: 'get', path: '/items/42', query: {}, body: null, user });
    expect(response).toEqual<PluginResponse>({
      status: 200,
      headers: { 'x-plugin': 'well-behaved' },
      body: { id: '42', user: 'Ada', clusters: { method: 'clusters.list', answered: true }, prefix: 'team-' },
    });
    const echoed = await plugin.handleRoute({ method: 'POST', path: '/echo', query: { a: 'b' }, body: { x: 1 }, user });
    expect(echoed).toEqual({ status: 201, headers: {}, body: { echoed: { x: 1 }, query: { a: 'b' } } });
  });

  it('answers 404 for a path it did not register', async () => {
    const response = await plugin.handleRoute({ method: 'DELETE', path: '/items/42', query: {}, body: null, user });
    expect(response.status).toBe(404);
  });

  it('hands the host’s refusal back to the plugin as a rejected call', async () => {
    const response = await plugin.handleRoute({ method: 'GET', path: '/denied', query: {}, body: null, user });
    expect(response).toEqual({ status: 403, headers: {}, body: { error: 'permission denied', code: 'FORBIDDEN' } });
  });

  it('runs a job, a tool and a panel through the typed host API, each host call with its call’s context', async () => {
    await expect(plugin.runJob('sweep', { count: 3 }, { as: 'job' })).resolves.toEqual({
      swept: 3,
      queues: { method: 'queues.list', answered: true },
    });
    await expect(plugin.callTool('lookup', { name: 'orders' }, { as: 'tool' })).resolves.toEqual({
      found: 'orders',
      rows: { method: 'db.query', answered: true },
    });
    await expect(plugin.panelData('summary', {}, { as: 'panel' })).resolves.toEqual({
      events: { method: 'events.list', answered: true },
    });
    expect(recorded.hostCalls).toEqual(
      expect.arrayContaining([
        { method: 'queues.list', params: { clusterId: 'c1', query: { name: 'q' } }, context: { as: 'job' } },
        { method: 'topics.publish', params: { topic: 'looked-up', data: { name: 'orders' } }, context: { as: 'tool' } },
        { method: 'db.query', params: { sql: 'select 1', params: [] }, context: { as: 'tool' } },
        { method: 'events.list', params: { query: { limit: 1 } }, context: { as: 'panel' } },
      ]),
    );
  });

  it('refuses host calls beyond the in-flight cap at once, and answers the rest', async () => {
    await expect(plugin.callTool('burst', { calls: 40 })).resolves.toEqual({
      answered: DEFAULT_PLUGIN_LIMITS.hostCallsInFlight,
      refused: 40 - DEFAULT_PLUGIN_LIMITS.hostCallsInFlight,
      reason: 'ERR_PLUGIN_TOO_MANY_CALLS',
    });
  });

  it('tells the plugin at once when the host’s answer or the host’s input cannot cross as JSON', async () => {
    const big = (await plugin.callTool('big', {})) as { refused: string };
    expect(big.refused).toMatch(/^the host's answer cannot cross to the plugin as JSON: TypeError.*BigInt/);
    await expect(plugin.callTool('lookup', { name: 1n })).rejects.toMatchObject({ code: 'invalid-input' });
  });

  it('lends a call’s context only while the call is open', async () => {
    const request = { method: 'GET', path: '/items/7', query: {}, body: null, user };
    await plugin.handleRoute(request, { as: 'ada' });
    expect(recorded.hostCalls).toContainEqual({ method: 'clusters.list', params: {}, context: { as: 'ada' } });
    // The plugin asks again from the same async context after answering: the host sees no context.
    const later = await plugin.handleRoute({ ...request, path: '/later' }, { as: 'ada' });
    expect(later.status).toBe(202);
    await expect
      .poll(() => recorded.hostCalls.find((call) => call.method === 'later'))
      .toEqual({
        method: 'later',
        params: {},
        context: undefined,
      });
  });

  it('rejects a call the plugin throws in, one it never answers, and one to an unknown name', async () => {
    await expect(plugin.callTool('fail', {})).rejects.toMatchObject({ code: 'plugin-error', pluginCode: 'NOPE' });
    await expect(
      plugin.handleRoute({ method: 'GET', path: '/slow', query: {}, body: null, user }),
    ).rejects.toMatchObject({
      code: 'timeout',
    });
    await expect(plugin.callTool('nothing', {})).rejects.toThrow(/no tool 'nothing' is registered/);
  });

  it('stops cleanly: reason stopped, the process gone, later calls refused at once', async () => {
    await plugin.stop('test over');
    const exit: PluginExit = await plugin.exited;
    expect(exit).toEqual({ reason: 'stopped', detail: 'exited with code 0' });
    expect(isAlive(plugin.pid)).toBe(false);
    const before = Date.now();
    await expect(plugin.callTool('lookup', { name: 'x' })).rejects.toMatchObject({ code: 'not-running' });
    expect(Date.now() - before).toBeLessThan(100);
  });
});

describe('a plugin whose deactivate() never returns', () => {
  it('is killed once the stop grace is over, and still counts as stopped', async () => {
    const { start } = await startFixture('stubborn', {
      allowed: { routes: [], jobs: [], tools: ['ping'] },
      limits: { stopGraceMs: 1_000 },
    });
    const plugin = await start;
    await expect(plugin.callTool('ping', {})).resolves.toBe('pong');
    const before = Date.now();
    await plugin.stop('test over');
    expect(Date.now() - before).toBeGreaterThanOrEqual(900);
    await expect(plugin.exited).resolves.toEqual({
      reason: 'stopped',
      detail: 'test over; killed after 1000 ms without exiting',
    });
    expect(isAlive(plugin.pid)).toBe(false);
  });
});

describe('a plugin that fails to start', () => {
  it('is refused a registration its manifest does not declare', async () => {
    const { start, directory } = await startFixture('undeclared', {
      allowed: { routes: [], jobs: [], tools: ['lookup'] },
    });
    await expect(start).rejects.toThrow(/activate-failed.*tool 'exfiltrate' is not declared in the plugin's manifest/);
    expect(await processesFor(directory)).toEqual([]);
  });

  it('is reported and gone when activate() throws', async () => {
    const { start, directory } = await startFixture('activate-throws');
    await expect(start).rejects.toThrow(/activate-failed.*cannot start: missing configuration/);
    expect(await processesFor(directory)).toEqual([]);
  });

  it('is killed when activate() never resolves', async () => {
    const { start, directory } = await startFixture('activate-hangs', { limits: { activateTimeoutMs: 2_500 } });
    await expect(start).rejects.toThrow(/activate-failed.*did not finish within 2500 ms/);
    expect(await processesFor(directory)).toEqual([]);
  });
});
