// The entry of a plugin process (started by ../plugin-process.ts with plain node under the permission model): puts up
// the fence, waits for the host's `init`, imports the plugin's server.js, runs activate(api) and then answers the
// host's calls. Plain JavaScript because the child runs without tsx, and can read nothing but this folder and the
// plugin's own. The message shapes are those of ../protocol.ts.
/* global setTimeout, clearTimeout -- the Node globals the shared ESLint config does not list for .mjs */
import { AsyncLocalStorage } from 'node:async_hooks';
import { fenceNetwork, fenceProcess } from './fence.mjs';
import { createPluginApi } from './plugin-api.mjs';

// Kept before the fence: the channel is the one way out, and the plugin gets no direct handle on it.
const send = process.send.bind(process);
fenceNetwork();
fenceProcess();
Object.defineProperty(process, 'send', { value: undefined, writable: false, configurable: false });

const handlers = { route: new Map(), job: new Map(), tool: new Map(), panel: new Map(), event: new Map() };
// Which host call a handler runs for, followed through its awaits and timers: the host answers a host call within the
// context of the call that caused it (the requesting user's grants), and only while that call is still open.
const currentCall = new AsyncLocalStorage();
const pending = new Map();
let nextRequest = 1;
let callTimeoutMs = 10_000;
let plugin;

function errorOf(error) {
  const message = error instanceof Error ? error.message : String(error);
  const code = error && typeof error.code === 'string' ? error.code : undefined;
  return code ? { message, code } : { message };
}

function request(message) {
  const rid = nextRequest++;
  return new Promise((resolve, reject) => {
    // Throws (and so rejects) first when the parameters cannot cross the channel.
    const cid = currentCall.getStore();
    send({ t: 'request', rid, ...message, ...(cid === undefined ? {} : { cid }) });
    const timer = setTimeout(() => {
      pending.delete(rid);
      reject(new Error(`the host did not answer ${message.op} within ${callTimeoutMs} ms`));
    }, callTimeoutMs);
    pending.set(rid, { resolve, reject, timer });
  });
}

function log(level, message, fields) {
  // JSON round trip: fields the channel cannot carry are dropped here rather than failing the send.
  let safe;
  try {
    safe = fields === undefined ? undefined : JSON.parse(JSON.stringify(fields));
  } catch {
    safe = { unserialisable: true };
  }
  send({ t: 'log', level, message, fields: safe });
}

async function start(init) {
  callTimeoutMs = init.callTimeoutMs;
  const { api, closeRegistrations } = createPluginApi(init, { request, log }, handlers);
  try {
    plugin = await import(init.entry);
    if (typeof plugin.activate !== 'function') throw new Error('server.js does not export activate(api)');
    await plugin.activate(api);
    closeRegistrations();
    const registered = {
      routes: [...handlers.route.keys()].map((key) => {
        const [method, ...path] = key.split(' ');
        return { method, path: path.join(' ') };
      }),
      jobs: [...handlers.job.keys()],
      tools: [...handlers.tool.keys()],
      panels: [...handlers.panel.keys()],
      events: [...handlers.event.keys()],
    };
    send({ t: 'ready', registered });
  } catch (error) {
    send({ t: 'activate-failed', error: errorOf(error) }, () => process.exit(1));
  }
}

async function call({ cid, kind, key, input }) {
  try {
    const handler = handlers[kind]?.get(key);
    if (!handler) throw new Error(`no ${kind} '${key}' is registered`);
    const value = await currentCall.run(cid, () => handler(input));
    // Checked here so the plugin learns its answer cannot cross the channel, instead of the host seeing garbage.
    send({ t: 'result', cid, ok: true, value: value === undefined ? null : JSON.parse(JSON.stringify(value)) });
  } catch (error) {
    send({ t: 'result', cid, ok: false, error: errorOf(error) });
  }
}

async function stop() {
  try {
    if (typeof plugin?.deactivate === 'function') await plugin.deactivate();
  } catch (error) {
    log('warn', 'deactivate() failed', errorOf(error));
  }
  send({ t: 'stopped' }, () => process.exit(0));
}

process.on('message', (message) => {
  switch (message?.t) {
    case 'init':
      void start(message);
      break;
    case 'call':
      void call(message);
      break;
    case 'reply': {
      const waiting = pending.get(message.rid);
      if (!waiting) break;
      pending.delete(message.rid);
      clearTimeout(waiting.timer);
      if (message.ok) waiting.resolve(message.value);
      else waiting.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
      break;
    }
    case 'ping':
      send({ t: 'pong' });
      break;
    case 'stop':
      void stop();
      break;
  }
});
// The host went away: nothing may outlive it.
process.on('disconnect', () => process.exit(0));
send({ t: 'hello' });
