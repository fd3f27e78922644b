// Starts Flotilla exactly as `npm start` does (node --import tsx scripts/start.ts) for the e2e suite, and watches
// its process tree through /proc so a test can find the worker, prove nothing is left behind, and always clean up.
import { spawn, type ChildProcess } from 'node:child_process';
import { findFreePort } from '../../src/base/db/embedded-postgres.ts';
import { eventually } from './eventually.ts';
import { TEST_ADMIN_ENV } from './sign-in.ts';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { recordSweep, secretsIn } from './secret-sweep.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
/** The supervisor's last start-up line (src/server/process/supervisor.ts). */
const READY: LogMatch = { process: 'supervisor', msg: /^ready: / };
const TRACK_EVERY_MS = 250;

/** A process as /proc shows it. `startTime` (clock ticks since boot) tells a reused pid from the original. */
export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly state: string;
  readonly startTime: string;
  readonly args: string;
}

function readProcess(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so fields are read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return {
      pid,
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
      state: fields[0] ?? '?',
      startTime: fields[19] ?? '',
      args,
    };
  } catch {
    return undefined; // gone between listing and reading
  }
}

function listProcesses(): ProcessInfo[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => readProcess(Number(name)) ?? []);
}

/** A process's environment as it was started (NAME=value entries); empty when it is gone or not readable. */
export function environmentOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** Every process below `rootPid` right now, found by walking ppid links. */
export function descendantsOf(rootPid: number, processes = listProcesses()): ProcessInfo[] {
  const children = new Map<number, ProcessInfo[]>();
  for (const info of processes) children.set(info.ppid, [...(children.get(info.ppid) ?? []), info]);
  const found: ProcessInfo[] = [];
  const pending = [rootPid];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      pending.push(child.pid);
    }
  }
  return found;
}

/** Still running: the same pid with the same start time, and not a zombie waiting to be reaped. */
export function isAlive(info: Pick<ProcessInfo, 'pid' | 'startTime'>): boolean {
  const now = readProcess(info.pid);
  return now !== undefined && now.startTime === info.startTime && now.state !== 'Z';
}

export function processesWithArgument(fragment: string): ProcessInfo[] {
  return listProcesses().filter(
    (info) => info.pid !== process.pid && info.args.includes(fragment) && info.state !== 'Z',
  );
}

/**
 * Waits for the run's background build of the web app (build-global-setup.ts) in a project that makes one, and throws
 * its failure: an app started before it is finished would build again, into the same folder.
 */
async function whenBuilt(outcomeFile: string | undefined, timeoutMs = 300_000): Promise<void> {
  if (!outcomeFile) return;
  const outcome = await eventually(
    'the background build of the web app',
    () => readFileSync(outcomeFile, 'utf8'),
    timeoutMs,
    250,
  );
  if (outcome !== 'built') throw new Error(outcome);
}

/** Reuses the embedded database's free-port finder (listen on port 0, then release). */
export const freePort = findFreePort;

/** One log line as the app prints it (src/base/log): a JSON object per line of standard output. */
export interface LogLine {
  readonly level: string;
  readonly process?: string;
  readonly module?: string;
  readonly msg?: string;
  readonly [field: string]: unknown;
}

/** Fields a log line must have: equal, or for a RegExp, matching the field as text. */
export type LogMatch = Readonly<Record<string, string | number | RegExp>>;

function matchesLine(line: LogLine, match: LogMatch): boolean {
  return Object.entries(match).every(([field, expected]) => {
    const value = line[field];
    if (!(expected instanceof RegExp)) return value === expected;
    return expected.test(typeof value === 'string' ? value : JSON.stringify(value ?? ''));
  });
}

/** The log lines among lines of standard output: a line that is not a JSON object is not one. */
export function parseLogLines(lines: readonly string[]): LogLine[] {
  return lines.flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line) as LogLine];
    } catch {
      return [];
    }
  });
}

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface StartOptions {
  /** Extra environment: DATABASE_URL or FLOTILLA_DATA_DIR, FLOTILLA_INSTANCE_ID, toggles… */
  readonly env?: Record<string, string>;
  readonly port?: number;
}

// Inherited variables that would make the run differ from a plain `npm start` in a shell: the test runner's own
// (NODE_ENV=test, VITEST_*) and any Flotilla configuration of the machine running the tests.
const SCRUBBED = /^(NODE_ENV|VITEST.*|TEST|DATABASE_URL|PORT|FLOTILLA_.*)$/;

/** The apps started since takeStartedApps() last ran (app-output-on-failure.ts keeps a failed file's output). */
const startedSinceTaken: AppProcess[] = [];

/** The apps started since the last call, in order; the list starts empty again. */
export function takeStartedApps(): AppProcess[] {
  return startedSinceTaken.splice(0);
}

export class AppProcess {
  private readonly chunks: string[] = [];
  private readonly stdoutChunks: string[] = [];
  private readonly seen = new Map<number, ProcessInfo>();
  private readonly tracker: NodeJS.Timeout;
  readonly exited: Promise<Exit>;
  private exit: Exit | undefined;

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      this.chunks.push(chunk);
      this.stdoutChunks.push(chunk);
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.chunks.push(chunk));
    // Everything the app printed, searched for the run's secrets once its output has ended (secret-sweep.ts).
    child.once('close', () => {
      const output = this.chunks.join('');
      recordSweep(`the output of the app on port ${String(port)}`, output.length, secretsIn(output));
    });
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      });
    });
    this.tracker = setInterval(() => this.track(), TRACK_EVERY_MS);
    this.tracker.unref();
  }

  static start(options: StartOptions & { port: number }): AppProcess {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !SCRUBBED.test(name)));
    // No NODE_ENV, as in a shell: the supervisor sets `production` for its children itself.
    const env: Record<string, string | undefined> = {
      ...inherited,
      PORT: String(options.port),
      FLOTILLA_HOST: '127.0.0.1',
      ...TEST_ADMIN_ENV,
      ...options.env,
    };
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
      cwd: REPO_ROOT,
      env: env as NodeJS.ProcessEnv,
      // Its own process group, so cleanup can signal the supervisor's group as a whole.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const app = new AppProcess(child, options.port);
    startedSinceTaken.push(app);
    return app;
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error('the supervisor did not start');
    return this.child.pid;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  /** Everything the supervisor and its children printed so far. */
  output(): string {
    return this.chunks.join('');
  }

  /** Standard output so far (the supervisor's and its children's, passed through). */
  stdout(): string {
    return this.stdoutChunks.join('');
  }

  /** Standard output's complete lines so far. */
  stdoutLines(): string[] {
    return this.stdout().split('\n').slice(0, -1);
  }

  /** The log lines so far; a line of standard output that is not a JSON object is not one (see stdoutLines). */
  logLines(): LogLine[] {
    return parseLogLines(this.stdoutLines());
  }

  /** Index in logLines() of the first line at or after `from` with these fields, or -1. */
  indexOfLog(match: LogMatch, from = 0): number {
    const lines = this.logLines();
    for (let index = Math.max(0, from); index < lines.length; index++) {
      const line = lines[index];
      if (line && matchesLine(line, match)) return index;
    }
    return -1;
  }

  /** The first log line with these fields, if any. */
  findLog(match: LogMatch): LogLine | undefined {
    return this.logLines().find((line) => matchesLine(line, match));
  }

  private tail(): string {
    return this.output().split('\n').slice(-40).join('\n');
  }

  /**
   * Records the current descendants (the tree changes: crashed children are replaced). The newest view of a process
   * wins: one seen between fork and exec still shows its parent's command line, and exec keeps pid and start time.
   */
  track(): ProcessInfo[] {
    if (!this.running) return [];
    const current = descendantsOf(this.pid);
    for (const info of current) this.seen.set(info.pid, info);
    return current;
  }

  /** Every descendant seen while the supervisor ran. */
  seenDescendants(): ProcessInfo[] {
    this.track();
    return [...this.seen.values()];
  }

  /** The supervisor's direct child whose command line names `entry`, e.g. worker-main.mjs (its bundle, ADR 39). */
  childRunning(entry: string): ProcessInfo | undefined {
    return this.track().find((info) => info.ppid === this.pid && info.args.includes(entry) && info.state !== 'Z');
  }

  async waitForLog(match: LogMatch, timeoutMs: number): Promise<void> {
    await eventually(
      `a log line ${JSON.stringify(match, (_, value: unknown) => (value instanceof RegExp ? String(value) : value))}`,
      () => {
        if (this.indexOfLog(match) >= 0) return true;
        if (!this.running) throw new Error(`the supervisor exited (${JSON.stringify(this.exit)})`);
        return undefined;
      },
      timeoutMs,
    ).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}\n--- output ---\n${this.tail()}`);
    });
  }

  /** Waits for the supervisor's `ready:` line (a build may run first when sources changed, hence the generous default). */
  async waitUntilReady(timeoutMs = 150_000): Promise<void> {
    await this.waitForLog(READY, timeoutMs);
    this.track();
  }

  async waitForExit(timeoutMs: number): Promise<Exit> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the supervisor did not exit within ${timeoutMs} ms\n--- output ---\n${this.tail()}`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** SIGTERM to the supervisor alone, as a service manager or Ctrl-C would; resolves with how it exited. */
  async stop(timeoutMs = 30_000): Promise<Exit> {
    this.track();
    if (this.running) this.child.kill('SIGTERM');
    return this.waitForExit(timeoutMs);
  }

  /**
   * Cleanup that cannot fail: a polite stop first, then SIGKILL to every process group and process ever seen
   * below the supervisor that is still the same process (pid and start time).
   */
  async destroy(): Promise<void> {
    if (this.running) await this.stop(30_000).catch(() => undefined);
    this.track();
    clearInterval(this.tracker);
    if (this.running) {
      // The supervisor first, so it cannot restart the children killed next.
      signal(-this.pid, 'SIGKILL');
      await this.waitForExit(5_000).catch(() => undefined);
    }
    for (const info of [...this.seen.values()].filter(isAlive)) {
      if (info.pgid === info.pid) signal(-info.pid, 'SIGKILL');
      signal(info.pid, 'SIGKILL');
    }
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
  }
}

function signal(target: number, name: NodeJS.Signals): void {
  try {
    process.kill(target, name);
  } catch {
    // already gone
  }
}

/** Keeps every started app so an afterAll can destroy what a failed test left running. */
export class AppPool {
  private readonly apps = new Set<AppProcess>();

  /** `buildOutcomeFile` is for a global set-up, where `inject` does not answer; a test file leaves it out. */
  constructor(private readonly buildOutcomeFile?: string) {}

  async start(options: StartOptions = {}): Promise<AppProcess> {
    await whenBuilt(this.buildOutcomeFile ?? inject('buildOutcomeFile'));
    const app = AppProcess.start({ ...options, port: options.port ?? (await freePort()) });
    this.apps.add(app);
    return app;
  }

  async startReady(options: StartOptions = {}): Promise<AppProcess> {
    const app = await this.start(options);
    await app.waitUntilReady();
    return app;
  }

  async destroyAll(): Promise<void> {
    await Promise.all([...this.apps].map((app) => app.destroy()));
    this.apps.clear();
  }
}

export interface SseMessage {
  readonly event: string;
  readonly data: string;
  readonly receivedAt: number;
}

/** A server-sent-event client on fetch's streaming body, parsing `event:` and `data:` lines as they arrive. */
export class SseClient {
  readonly messages: SseMessage[] = [];
  private reading: Promise<void> | undefined;
  private failure: unknown;

  private constructor(
    readonly response: Response,
    private readonly abort: AbortController,
  ) {}

  static async open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const abort = new AbortController();
    const response = await fetch(url, { headers: { Accept: 'text/event-stream', ...headers }, signal: abort.signal });
    const client = new SseClient(response, abort);
    client.reading = client.read().catch((error: unknown) => {
      if (!abort.signal.aborted) client.failure = error;
    });
    return client;
  }

  private async read(): Promise<void> {
    const body = this.response.body;
    if (!body) throw new Error('the stream response has no body');
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const lines = block.split('\n');
        const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trimStart());
        const event = lines
          .find((line) => line.startsWith('event:'))
          ?.slice(6)
          .trim();
        // Comment-only blocks (`:ping`) and bare `retry:` lines carry no message.
        if (data.length > 0)
          this.messages.push({ event: event ?? 'message', data: data.join('\n'), receivedAt: Date.now() });
      }
    }
  }

  async waitFor(what: string, predicate: (message: SseMessage) => boolean, timeoutMs: number): Promise<SseMessage> {
    return eventually(
      what,
      () => {
        if (this.failure !== undefined)
          throw this.failure instanceof Error ? this.failure : new Error('the stream failed', { cause: this.failure });
        return this.messages.find(predicate);
      },
      timeoutMs,
    );
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.reading;
  }
}
