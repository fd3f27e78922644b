// Bookkeeping of the broker JVMs this harness starts, so none outlives the test run: every JVM is tagged with the
// pid of the test process that owns it, exit and signal handlers kill the ones still running, and the next run
// reaps what a test process killed outright (kill -9) left behind, together with its temp folders.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, readdirSync, readFileSync, rmSync, closeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const OWNER_FLAG = '-Dflotilla.harness.owner=';
export const TEMP_PREFIX = 'flotilla-artemis-';
const OWNER_FILE = '.owner-pid';

const running = new Set<ChildProcess>();

function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal); // the whole group: bin/artemis execs java, which is the group leader
  } catch {
    // already gone
  }
}

function killAllNow(): void {
  for (const child of running) killGroup(child, 'SIGKILL');
  running.clear();
}

let handlersInstalled = false;
function installExitHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.once('exit', killAllNow);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killAllNow();
      process.kill(process.pid, signal);
    });
  }
}

/** Kills broker JVMs and removes temp folders whose owning test process is gone. */
export function reapOrphans(): void {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string;
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    const owner = args.split('\0').find((arg) => arg.startsWith(OWNER_FLAG));
    if (owner && !isPidAlive(Number(owner.slice(OWNER_FLAG.length)))) {
      try {
        process.kill(Number(entry), 'SIGKILL');
      } catch {
        // raced with its own exit
      }
    }
  }
  for (const name of readdirSync(os.tmpdir())) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const ownerFile = path.join(os.tmpdir(), name, OWNER_FILE);
    const owner = existsSync(ownerFile) ? Number(readFileSync(ownerFile, 'utf8')) : NaN;
    if (Number.isInteger(owner) && !isPidAlive(owner))
      rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
  }
}

export function ownerFileName(): string {
  return OWNER_FILE;
}

export interface BrokerProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
  hasExited(): boolean;
  signal(signal: NodeJS.Signals): void;
}

/** Starts `<instance>/bin/artemis run` in its own process group with output appended to `logFile`. */
export function spawnBroker(instanceDir: string, logFile: string): BrokerProcess {
  installExitHandlers();
  const log = openSync(logFile, 'a');
  const env: NodeJS.ProcessEnv = { ...process.env, JAVA_ARGS_APPEND: `${OWNER_FLAG}${process.pid}` };
  delete env.JAVA_ARGS; // the instance profile sets it only when empty; ours must win
  const child = spawn(path.join(instanceDir, 'bin', 'artemis'), ['run'], {
    detached: true,
    stdio: ['ignore', log, log],
    env,
  });
  closeSync(log);
  running.add(child);
  let exited = false;
  const exitedPromise = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      running.delete(child);
      resolve();
    });
  });
  return {
    child,
    exited: exitedPromise,
    hasExited: () => exited,
    signal: (signal) => killGroup(child, signal),
  };
}
