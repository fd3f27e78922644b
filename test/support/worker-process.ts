// A Flotilla worker in a process of its own, started as the supervisor starts it (worker/main.ts with an IPC channel,
// ready when it says so), but from its source through tsx rather than the build's bundle (ADR 39): the broker files
// that use it run before the run's build is made. Its scheduler, its worker services and its native pool are its own.
// Several workers in one test process (worker-kit's startWorker) share the process's native pool and its capture
// runtime, and stopping one closes the others' native consumers; a suite that needs workers apart, or one it can
// kill -9, starts them here. A worker whose parent dies ends too (its IPC channel closes: child-lifecycle.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TEST_SECRET_KEY } from './worker-kit.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
/** A worker's start on two busy cores: tsx compiles the whole module graph, and other suites share the cores. */
const READY_TIMEOUT_MS = 180_000;
/** The worker's own shutdown bound is 20 s (child-lifecycle.ts). */
const STOP_TIMEOUT_MS = 25_000;
const KEPT_LOG_LINES = 200;

export interface WorkerProcess {
  readonly instanceId: string;
  readonly pid: number;
  /** Its last log lines, for a failing test's message. */
  readonly log: readonly string[];
  /** SIGTERM, as the supervisor stops it: its shutdown runs (capture closes its consumers, locks are let go). */
  stop(): Promise<void>;
  /** SIGKILL: nothing of its shutdown runs; PostgreSQL ends its sessions, the broker its connections. */
  kill(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

function keepLines(stream: NodeJS.ReadableStream | null, log: string[]): void {
  let rest = '';
  stream?.on('data', (data: Buffer) => {
    const lines = (rest + data.toString()).split('\n');
    rest = lines.pop() ?? '';
    log.push(...lines);
    log.splice(0, Math.max(0, log.length - KEPT_LOG_LINES));
  });
}

export async function startWorkerProcess(databaseUrl: string, instanceId: string): Promise<WorkerProcess> {
  const dataDirectory = mkdtempSync(path.join(tmpdir(), `flotilla-${instanceId}-`));
  // The database pool is the default one (FLOTILLA_DB_POOL_SIZE 10), as `npm start` runs it.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    FLOTILLA_INSTANCE_ID: instanceId,
    FLOTILLA_SECRET_KEY: TEST_SECRET_KEY,
    FLOTILLA_DATA_DIR: dataDirectory,
  };
  // The worker is not a test: vitest's own variables stay with the test process.
  for (const name of Object.keys(env)) if (name.startsWith('VITEST')) Reflect.deleteProperty(env, name);
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'worker/main.ts')], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const log: string[] = [];
  keepLines(child.stdout, log);
  keepLines(child.stderr, log);
  const cleanUp = () => rmSync(dataDirectory, { recursive: true, force: true });
  void exited(child).then(cleanUp);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
      child.on('message', (message: { type?: string }) => {
        if (message.type !== 'ready') return;
        clearTimeout(timer);
        resolve();
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`exited (${String(code ?? signal)}) before it was ready`));
      });
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(
      `worker ${instanceId}: ${error instanceof Error ? error.message : String(error)}\n${log.slice(-20).join('\n')}`,
      { cause: error },
    );
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error(`worker ${instanceId} has no pid`);
  return {
    instanceId,
    pid,
    log,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited(child);
      clearTimeout(timer);
    },
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
  };
}

/** The inodes of the TCP sockets (IPv4 and IPv6) whose local end is `port`: /proc/net/tcp{,6}, ports in hex. */
function socketInodesOfLocalPort(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      const inode = fields[9];
      if (!local || !inode) continue;
      if (Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16) === port) inodes.add(inode);
    }
  }
  return inodes;
}

/**
 * Which of the workers holds the loopback connection whose local (client) port is `port`, as the peer saw it (the
 * broker's clientAddress, PostgreSQL's client_port): read from each process's open sockets, not from its own word.
 */
export function workerHoldingPort(workers: readonly WorkerProcess[], port: number): WorkerProcess | undefined {
  const inodes = socketInodesOfLocalPort(port);
  if (inodes.size === 0) return undefined;
  return workers.find((worker) => {
    let descriptors: string[];
    try {
      descriptors = readdirSync(`/proc/${String(worker.pid)}/fd`);
    } catch {
      return false;
    }
    return descriptors.some((descriptor) => {
      try {
        const target = readlinkSync(`/proc/${String(worker.pid)}/fd/${descriptor}`);
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
        return inode !== undefined && inodes.has(inode);
      } catch {
        return false;
      }
    });
  });
}
