// A plugin that crashes, loops or allocates without end is stopped without taking the host down (issue 33, tests):
// each ends with the right reason, its process gone, pending and later calls rejected, and nothing thrown here.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isAlive, removeFixtures, startFixture } from './fixtures/fixture-plugins.ts';
import { PluginCallError, type PluginExitReason, type PluginProcess, type PluginRequest } from './plugin-process.ts';

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => process.on('unhandledRejection', onUnhandled));
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await removeFixtures();
});
afterEach(() => expect(unhandled).toEqual([]));

const loop: PluginRequest = {
  method: 'GET',
  path: '/loop',
  query: {},
  body: null,
  user: { id: 'u1', name: 'Ada', permissions: [] },
};
// What each fixture registers, all of it declared.
const CRASHING_TOOLS = ['throw-later', 'exit', 'slow'];
const LOOPING_ALLOWED = { routes: [{ method: 'GET', path: '/loop' }], jobs: [], tools: ['busy'] };

async function expectEnded(plugin: PluginProcess, reason: PluginExitReason, detail: RegExp) {
  const exit = await plugin.exited;
  expect(exit).toMatchObject({ reason });
  expect(exit.detail).toMatch(detail);
  expect(isAlive(plugin.pid)).toBe(false);
  const before = Date.now();
  const refused = plugin.callTool('anything', {});
  await expect(refused).rejects.toBeInstanceOf(PluginCallError);
  await expect(refused).rejects.toMatchObject({ code: 'not-running' });
  expect(Date.now() - before).toBeLessThan(100);
}

describe('a plugin that crashes after activating', () => {
  it('by an uncaught exception in a timer: crashed, and its pending call rejected', async () => {
    const { start } = await startFixture('crashing', {
      allowed: { routes: [], jobs: [], tools: CRASHING_TOOLS },
    });
    const plugin = await start;
    const pending = plugin.callTool('slow', {});
    await expect(plugin.callTool('throw-later', {})).resolves.toBe('scheduled');
    await expect(pending).rejects.toMatchObject({ code: 'exited' });
    await expectEnded(plugin, 'crashed', /exited with code 1: Error: boom from a timer/);
  });

  it('by process.exit(): crashed', async () => {
    const { start } = await startFixture('crashing', { allowed: { routes: [], jobs: [], tools: CRASHING_TOOLS } });
    const plugin = await start;
    await expect(plugin.callTool('exit', {})).resolves.toBe('exiting');
    await expectEnded(plugin, 'crashed', /exited with code 3/);
  });
});

describe('a plugin that will not give the CPU back', () => {
  it('loops in a route handler: killed as unresponsive within seconds while the host keeps answering', async () => {
    const { start } = await startFixture('looping', {
      allowed: LOOPING_ALLOWED,
      limits: { unresponsiveMs: 2_000, callTimeoutMs: 20_000 },
    });
    const plugin = await start;
    const started = Date.now();
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 50);
    await expect(plugin.handleRoute(loop)).rejects.toMatchObject({
      code: 'exited',
    });
    clearInterval(ticker);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(ticks).toBeGreaterThan(10); // the host's own event loop ran all along
    await expectEnded(plugin, 'unresponsive', /no answer to pings/);
  });

  it('burns CPU in slices, still answering pings: killed over its CPU budget', async () => {
    const { start } = await startFixture('looping', {
      allowed: LOOPING_ALLOWED,
      limits: { cpuMsPerMinute: 700 },
    });
    const plugin = await start;
    await expect(plugin.callTool('busy', {})).resolves.toBe('burning');
    await expectEnded(plugin, 'cpu', /ms of CPU time in the last minute > 700 ms/);
  });
});

describe('a plugin that allocates without end', () => {
  it('on the heap: ended by its heap cap as memory', async () => {
    const { start } = await startFixture('allocating', {
      allowed: { routes: [], jobs: [], tools: ['heap', 'buffers'] },
      limits: { memoryMb: 48, rssMb: 2_048 },
    });
    const plugin = await start;
    await expect(plugin.callTool('heap', {})).resolves.toBe('growing');
    await expectEnded(plugin, 'memory', /heap \(48 MB\) ran out/);
  });

  it('in Buffers outside the heap: killed by the resident-memory watch as memory', async () => {
    const { start } = await startFixture('allocating', {
      allowed: { routes: [], jobs: [], tools: ['heap', 'buffers'] },
      limits: { memoryMb: 48, rssMb: 160 },
    });
    const plugin = await start;
    await expect(plugin.callTool('buffers', {})).resolves.toBe('growing');
    await expectEnded(plugin, 'memory', /resident memory \d+ MB > 160 MB/);
  });
});
