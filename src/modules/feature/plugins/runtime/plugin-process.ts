// Runs one plugin in a child process of its own (issue 33: runtime isolation) and is the host's only handle on it:
// start and activate, route/job/tool/panel calls with timeouts, stop, and an `exited` promise saying why it ended.
// Nothing the child does may throw in the host: its failures end up in `exited` and in rejected calls.
import { spawn, type ChildProcess } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { exitVerdict, type PluginExit, type PluginExitReason } from './exit-verdict.ts';
import { assertPlainFolder, entryWithin } from './folder-check.ts';
import { effectiveLimits, type PluginLimits } from './limits.ts';
import { budgetedLog, captureOutput } from './output.ts';
import { parseChildMessage, type CallKind, type ChildMessage, type HostMessage, type Registered } from './protocol.ts';
import { matchRoute } from './routes.ts';
import { CHILD_ENVIRONMENT, sandboxCommand, type NetworkIsolation } from './sandbox.ts';
import { startWatchdog, type Watchdog } from './watchdog.ts';

export type { PluginExit, PluginExitReason } from './exit-verdict.ts';

export interface PluginRequest {
  method: string;
  /** The path below the plugin's mount point, e.g. `/items/42`; matched against the registered routes. */
  path: string;
  params?: Record<string, string>;
  query: Record<string, string | string[]>;
  body: unknown;
  user: { id: string; name: string; permissions: string[] };
  clusterId?: string;
}

export interface PluginResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export type PluginLogLevel = 'info' | 'warn' | 'error';

/** Why a call to a plugin failed; `code` tells the caller whether the plugin or its process is to blame. */
export class PluginCallError extends Error {
  constructor(
    readonly code: 'not-running' | 'exited' | 'timeout' | 'plugin-error' | 'invalid-input' | 'invalid-response',
    message: string,
    /** The plugin's own error code, when it threw one. */
    readonly pluginCode?: string,
  ) {
    super(message);
    this.name = 'PluginCallError';
  }
}

export interface StartPluginOptions {
  id: string;
  version: string;
  /** The plugin's unpacked folder, absolute: the only place the child may read. */
  directory: string;
  /** The server bundle inside it, e.g. 'server.js'. */
  serverEntry: string;
  /** What the manifest declares; anything else the plugin tries to register is refused. */
  allowed: {
    routes: { method: string; path: string }[];
    jobs: string[];
    tools: string[];
    panels?: string[];
    events?: string[];
  };
  /** Left-out limits take DEFAULT_PLUGIN_LIMITS. */
  limits?: Partial<PluginLimits>;
  /**
   * Answers api.host.call (and the typed sugar); a throw goes back to the plugin as a rejected call. `context` is what
   * the host passed with the route, job, tool or panel call the plugin is handling when it asks (e.g. the requesting
   * user's grants), and undefined once that call is over or when the plugin asks on its own (activate, a timer).
   */
  host: (method: string, params: unknown, context: unknown) => Promise<unknown>;
  settings: (key: string) => unknown;
  log: (level: PluginLogLevel, message: string, fields: Record<string, unknown>) => void;
}

export interface PluginProcess {
  readonly pid: number;
  readonly isolation: { network: NetworkIsolation };
  readonly registered: Readonly<Registered>;
  /**
   * 404 when no registered route matches; the route's `:name` captures are merged into `params`. `context` stays in
   * the host and is handed to `host` for the host calls the plugin makes while handling this call.
   */
  handleRoute(request: PluginRequest, context?: unknown): Promise<PluginResponse>;
  runJob(id: string, input: unknown, context?: unknown): Promise<unknown>;
  callTool(name: string, input: unknown, context?: unknown): Promise<unknown>;
  panelData(id: string, input: unknown, context?: unknown): Promise<unknown>;
  /** A core event to its handler (api.events.on); undefined at once when it registered none for the topic. */
  coreEvent(topic: string, input: unknown): Promise<unknown>;
  /** deactivate() within the stop grace, then SIGKILL; resolves once the process is gone. */
  stop(reason?: string): Promise<void>;
  /** Resolves (never rejects) when the process has ended, whoever ended it. */
  readonly exited: Promise<PluginExit>;
}

interface Pending {
  context: unknown;
  resolve: (value: unknown) => void;
  reject: (error: PluginCallError) => void;
  timer: NodeJS.Timeout;
}

// A child that is looping never sees its channel close when the host goes: the host takes its children with it.
const livePlugins = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of livePlugins) child.kill('SIGKILL');
});

export async function startPluginProcess(options: StartPluginOptions): Promise<PluginProcess> {
  const limits = effectiveLimits(options.limits);
  // The permission model compares paths as given, while the module loader reads the real path: resolve links first.
  const directory = await realpath(path.resolve(options.directory));
  const entry = pathToFileURL(entryWithin(directory, options.serverEntry)).href;
  await assertPlainFolder(directory);
  const allowed: Registered = { panels: [], events: [], ...options.allowed };
  const sandbox = await sandboxCommand(directory, limits);
  const label = `plugin ${options.id}@${options.version}`;

  const child = spawn(sandbox.command, sandbox.args, {
    cwd: directory,
    // spawn adds the IPC channel's own variables to it.
    env: { ...CHILD_ENVIRONMENT },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'json',
  });

  const safeLog = (level: PluginLogLevel, message: string, fields: Record<string, unknown> = {}) => {
    try {
      options.log(level, message, fields);
    } catch {
      // the host's logger failing is no reason to fail the plugin
    }
  };
  // What the plugin says (output, api.log) is budgeted; what the runtime says about it is not.
  const pluginLog = budgetedLog(safeLog);
  const output = captureOutput(child, pluginLog);

  let phase: 'starting' | 'running' | 'stopping' | 'exited' = 'starting';
  let killed: PluginExit | undefined;
  let exit: PluginExit | undefined;
  let registered: Registered = { routes: [], jobs: [], tools: [], panels: [], events: [] };
  let nextCall = 1;
  const pending = new Map<number, Pending>();
  let watchdog: Watchdog | undefined;
  let resolveExited: (value: PluginExit) => void = () => undefined;
  const exited = new Promise<PluginExit>((resolve) => (resolveExited = resolve));
  let settleStart: { resolve: () => void; reject: (error: Error) => void } | undefined;
  const started = new Promise<void>((resolve, reject) => (settleStart = { resolve, reject }));

  const send = (message: HostMessage) => {
    if (!child.connected) return;
    try {
      child.send(message, (error) => {
        if (error) safeLog('warn', `${label}: could not send ${message.t}`, { error: error.message });
      });
    } catch (error) {
      // JSON.stringify refused the payload (a BigInt, a cycle): the side waiting for it hears so at once.
      const why = `cannot cross to the plugin as JSON: ${String(error)}`;
      if (message.t === 'call') failCall(message.cid, new PluginCallError('invalid-input', `the input ${why}`));
      else if (message.t === 'reply' && message.ok)
        send({ t: 'reply', rid: message.rid, ok: false, error: { message: `the host's answer ${why}` } });
      else safeLog('warn', `${label}: could not send ${message.t}`, { error: String(error) });
    }
  };

  const terminate = (reason: PluginExitReason, detail: string) => {
    if (phase === 'exited') return;
    killed ??= { reason, detail };
    child.kill('SIGKILL');
  };

  const activation = setTimeout(
    () => terminate('activate-failed', `activate() did not finish within ${limits.activateTimeoutMs} ms`),
    limits.activateTimeoutMs,
  );

  function failCall(cid: number, error: PluginCallError) {
    const call = pending.get(cid);
    if (!call) return;
    pending.delete(cid);
    clearTimeout(call.timer);
    call.reject(error);
  }

  let hostCallsInFlight = 0;
  function answer(rid: number, work: () => unknown) {
    // A plugin firing requests in a loop gets refusals, not an unbounded queue of work in the host.
    if (hostCallsInFlight >= limits.hostCallsInFlight) {
      const message = `over ${limits.hostCallsInFlight} host calls at once: wait for some to finish`;
      send({ t: 'reply', rid, ok: false, error: { message, code: 'ERR_PLUGIN_TOO_MANY_CALLS' } });
      return;
    }
    hostCallsInFlight += 1;
    void Promise.resolve()
      .then(work)
      .finally(() => (hostCallsInFlight -= 1))
      .then(
        (value) => send({ t: 'reply', rid, ok: true, value: value === undefined ? null : value }),
        (error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          const code = (error as { code?: unknown } | null)?.code;
          send({ t: 'reply', rid, ok: false, error: typeof code === 'string' ? { message, code } : { message } });
        },
      );
  }

  function onMessage(message: ChildMessage) {
    switch (message.t) {
      case 'hello':
        send({
          t: 'init',
          id: options.id,
          version: options.version,
          entry,
          allowed,
          callTimeoutMs: limits.callTimeoutMs,
        });
        watchdog ??= startWatchdog({
          pid: child.pid ?? -1,
          limits,
          ping: () => send({ t: 'ping' }),
          onVerdict: (verdict) => terminate(verdict.reason, verdict.detail),
        });
        break;
      case 'pong':
        watchdog?.pong();
        break;
      case 'ready':
        if (phase !== 'starting') break;
        clearTimeout(activation);
        registered = message.registered;
        phase = 'running';
        settleStart?.resolve();
        break;
      case 'activate-failed':
        terminate('activate-failed', `activate() failed: ${message.error.message}`);
        break;
      case 'result': {
        const call = pending.get(message.cid);
        if (!call) break;
        pending.delete(message.cid);
        clearTimeout(call.timer);
        if (message.ok) call.resolve(message.value);
        else call.reject(new PluginCallError('plugin-error', message.error.message, message.error.code));
        break;
      }
      case 'request':
        if (message.op === 'host') {
          // Only a call still open lends its context: a plugin keeping a request's async context alive gains nothing.
          const context = message.cid === undefined ? undefined : pending.get(message.cid)?.context;
          answer(message.rid, () => options.host(message.method, message.params, context));
        } else answer(message.rid, () => options.settings(message.key));
        break;
      case 'log':
        pluginLog(message.level, message.message, message.fields ?? {});
        break;
      case 'stopped':
        break;
    }
  }

  child.on('message', (raw) => {
    const message = parseChildMessage(raw);
    if (message) onMessage(message);
  });

  // Calls and the watchdog end on 'exit' (at once); the reason is settled on 'close', once stderr is read in full.
  function onExit(code: number | null, signal: NodeJS.Signals | null) {
    if (phase === 'exited') return;
    const endedIn = phase;
    phase = 'exited';
    clearTimeout(activation);
    watchdog?.stop();
    const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
    for (const cid of [...pending.keys()]) failCall(cid, new PluginCallError('exited', `${label} ended (${how})`));
    const finish = () => {
      if (exit) return;
      exit = killed ?? exitVerdict({ how, endedIn, stderr: output.stderrTail(), memoryMb: limits.memoryMb });
      settleStart?.reject(new Error(`${label} did not start (${exit.reason}): ${exit.detail}`));
      resolveExited(exit);
    };
    child.once('close', finish);
    // 'close' waits for stdout and stderr to end; should they not, the verdict does not wait for them.
    setTimeout(finish, 1_000).unref();
  }

  child.on('exit', onExit);
  livePlugins.add(child);
  void exited.then(() => livePlugins.delete(child));
  child.on('error', (error) => {
    // Spawning failed (no 'exit' follows), or a signal could not be delivered to a process already gone.
    if (child.pid === undefined) {
      killed ??= { reason: 'activate-failed', detail: `could not start: ${error.message}` };
      onExit(null, null);
    }
  });

  function invoke(kind: CallKind, key: string, input: unknown, context: unknown): Promise<unknown> {
    if (phase !== 'running')
      return Promise.reject(
        new PluginCallError('not-running', `${label} is not running${exit ? ` (${exit.reason}: ${exit.detail})` : ''}`),
      );
    const cid = nextCall++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          failCall(
            cid,
            new PluginCallError('timeout', `${label}: ${kind} '${key}' took over ${limits.callTimeoutMs} ms`),
          ),
        limits.callTimeoutMs,
      );
      pending.set(cid, { context, resolve, reject, timer });
      send({ t: 'call', cid, kind, key, input });
    });
  }

  async function handleRoute(request: PluginRequest, context?: unknown): Promise<PluginResponse> {
    const match = matchRoute(registered.routes, request.method, request.path);
    if (!match)
      return { status: 404, headers: {}, body: { message: `${label} has no route ${request.method} ${request.path}` } };
    const key = `${match.route.method.toUpperCase()} ${match.route.path}`;
    const value = await invoke('route', key, { ...request, params: { ...request.params, ...match.params } }, context);
    return routeResponse(value, `${label}: route ${key}`);
  }

  async function stop(reason = 'stopped by the host'): Promise<void> {
    if (phase === 'exited') {
      await exited;
      return;
    }
    phase = 'stopping';
    send({ t: 'stop' });
    const grace = setTimeout(() => {
      killed ??= { reason: 'stopped', detail: `${reason}; killed after ${limits.stopGraceMs} ms without exiting` };
      child.kill('SIGKILL');
    }, limits.stopGraceMs);
    await exited;
    clearTimeout(grace);
  }

  try {
    await started;
  } catch (error) {
    await exited; // the child is gone before the caller hears about it
    throw error;
  }

  return {
    get pid() {
      return child.pid ?? -1;
    },
    isolation: { network: sandbox.network },
    get registered() {
      return registered;
    },
    handleRoute,
    runJob: (id, input, context) => invoke('job', id, input, context),
    callTool: (name, input, context) => invoke('tool', name, input, context),
    panelData: (id, input, context) => invoke('panel', id, input, context),
    coreEvent: (topic, input) =>
      registered.events.includes(topic) ? invoke('event', topic, input, undefined) : Promise.resolve(undefined),
    stop,
    exited,
  };
}

function routeResponse(value: unknown, what: string): PluginResponse {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new PluginCallError('invalid-response', `${what} returned no { status?, headers?, body } object`);
  const { status = 200, headers = {}, body = null } = value as Record<string, unknown>;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599)
    throw new PluginCallError('invalid-response', `${what} returned status ${String(status)}`);
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers))
    throw new PluginCallError('invalid-response', `${what} returned headers that are not an object`);
  const stringHeaders = Object.fromEntries(
    Object.entries(headers as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
  return { status, headers: stringHeaders, body };
}
