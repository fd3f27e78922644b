// The messages on the IPC channel between the host and a plugin process (JSON serialisation). The child side is plain
// JavaScript (child/bootstrap.mjs), so these types are the reference both sides follow; the host checks every message
// it receives against them, because the child runs third-party code that can send anything.

export interface Registered {
  routes: { method: string; path: string }[];
  jobs: string[];
  tools: string[];
  panels: string[];
  /** Core topics it handles (api.events.on). */
  events: string[];
}

export type CallKind = 'route' | 'job' | 'tool' | 'panel' | 'event';

interface WireError {
  message: string;
  code?: string;
}

/** Host → child. */
export type HostMessage =
  | { t: 'init'; id: string; version: string; entry: string; allowed: Registered; callTimeoutMs: number }
  | { t: 'call'; cid: number; kind: CallKind; key: string; input: unknown }
  | { t: 'reply'; rid: number; ok: true; value: unknown }
  | { t: 'reply'; rid: number; ok: false; error: WireError }
  | { t: 'ping' }
  | { t: 'stop' };

/** Child → host. */
export type ChildMessage =
  | { t: 'hello' }
  | { t: 'ready'; registered: Registered }
  | { t: 'activate-failed'; error: WireError }
  | { t: 'result'; cid: number; ok: true; value: unknown }
  | { t: 'result'; cid: number; ok: false; error: WireError }
  /** `cid`: the host's call the plugin was handling when it asked (its async context), if any. */
  | { t: 'request'; rid: number; op: 'host'; method: string; params: unknown; cid?: number }
  | { t: 'request'; rid: number; op: 'settings'; key: string }
  | { t: 'log'; level: 'info' | 'warn' | 'error'; message: string; fields?: Record<string, unknown> }
  | { t: 'pong' }
  | { t: 'stopped' };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function wireError(value: unknown): WireError {
  if (!isRecord(value)) return { message: 'unknown error' };
  const message = typeof value.message === 'string' ? value.message.slice(0, 2_000) : 'unknown error';
  return typeof value.code === 'string' ? { message, code: value.code.slice(0, 100) } : { message };
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isRegistered(value: unknown): value is Registered {
  return (
    isRecord(value) &&
    Array.isArray(value.routes) &&
    value.routes.every(
      (route) => isRecord(route) && typeof route.method === 'string' && typeof route.path === 'string',
    ) &&
    isStringList(value.jobs) &&
    isStringList(value.tools) &&
    isStringList(value.panels) &&
    isStringList(value.events)
  );
}

/** The message if it has a known shape, otherwise undefined (the host ignores it). */
export function parseChildMessage(value: unknown): ChildMessage | undefined {
  if (!isRecord(value) || typeof value.t !== 'string') return undefined;
  switch (value.t) {
    case 'hello':
    case 'pong':
    case 'stopped':
      return { t: value.t };
    case 'ready':
      return isRegistered(value.registered) ? { t: 'ready', registered: value.registered } : undefined;
    case 'activate-failed':
      return { t: 'activate-failed', error: wireError(value.error) };
    case 'result':
      if (typeof value.cid !== 'number') return undefined;
      return value.ok === true
        ? { t: 'result', cid: value.cid, ok: true, value: value.value }
        : { t: 'result', cid: value.cid, ok: false, error: wireError(value.error) };
    case 'request':
      if (typeof value.rid !== 'number') return undefined;
      if (value.op === 'host' && typeof value.method === 'string') {
        const request = {
          t: 'request',
          rid: value.rid,
          op: 'host',
          method: value.method,
          params: value.params,
        } as const;
        return typeof value.cid === 'number' ? { ...request, cid: value.cid } : request;
      }
      if (value.op === 'settings' && typeof value.key === 'string')
        return { t: 'request', rid: value.rid, op: 'settings', key: value.key };
      return undefined;
    case 'log': {
      const level = value.level === 'warn' || value.level === 'error' ? value.level : 'info';
      const message = typeof value.message === 'string' ? value.message.slice(0, 10_000) : String(value.message);
      return isRecord(value.fields) ? { t: 'log', level, message, fields: value.fields } : { t: 'log', level, message };
    }
    default:
      return undefined;
  }
}
