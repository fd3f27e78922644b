// `npm start`: build if needed, start the embedded database unless DATABASE_URL is set, migrate, check the
// module toggles, then run and watch the web and worker processes. A crashed child is restarted with capped
// backoff. Ctrl-C / SIGTERM stops web (stream first), then worker, then the database, and leaves nothing behind.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { StartupError } from '@/modules/kernel/plugin/index.ts';
import { defaultInstanceId } from '@/base/env.ts';
import { migrate } from '@/base/db/migrate.ts';
import { buildIfNeeded, serverBundle, type ServerProcess } from './build.ts';
import { prepareInstallation } from './prepare-installation.ts';
import { webHeapArguments } from './heap-limit.ts';
import { logger, routeConsoleToLog, setLogProcess } from '@/base/log/log.ts';

const log = logger('supervisor');

const MAX_RESTART_DELAY_MS = 30_000;
const STABLE_AFTER_MS = 60_000;
const STOP_TIMEOUT_MS = 25_000;

interface Supervised {
  readonly name: ServerProcess;
  child?: ChildProcess;
  restarts: number;
  stopping: boolean;
}

const root = process.cwd();

/**
 * The bootstrap admin password is for the supervisor's first-run step only: no child (web, worker, the database
 * process and the PostgreSQL it starts) inherits it, so it cannot leak through /proc, a crash dump or a child's log.
 */
const BOOTSTRAP_SECRETS = ['FLOTILLA_ADMIN_PASSWORD'];

function withoutBootstrapSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of BOOTSTRAP_SECRETS) Reflect.deleteProperty(copy, name);
  return copy;
}

/** A child runs its bundle from the build (ADR 39): plain Node, no TypeScript loader. */
function startChild(name: ServerProcess, env: NodeJS.ProcessEnv, nodeArgs: readonly string[] = []): ChildProcess {
  // Own process group (detached): a terminal Ctrl-C reaches only the supervisor, which stops children in order.
  return spawn(process.execPath, [...nodeArgs, path.join(root, serverBundle(name))], {
    cwd: root,
    env: withoutBootstrapSecrets(env),
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

function waitForMessage<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type?: string } & T) => {
      if (message.type === type) {
        child.off('exit', onExit);
        resolve(message);
      }
    };
    const onExit = (code: number | null) => reject(new Error(`exited with code ${String(code)} before it was ready`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function supervise(supervised: Supervised, env: NodeJS.ProcessEnv, nodeArgs: readonly string[] = []): Promise<void> {
  const launch = (): Promise<void> => {
    const startedAt = Date.now();
    const child = startChild(supervised.name, env, nodeArgs);
    supervised.child = child;
    child.once('exit', (code, signal) => {
      if (supervised.stopping) return;
      if (Date.now() - startedAt > STABLE_AFTER_MS) supervised.restarts = 0;
      const delay = Math.min(MAX_RESTART_DELAY_MS, 1_000 * 2 ** supervised.restarts++);
      log.warn(
        { child: supervised.name, code, signal, delayMs: delay },
        `${supervised.name} exited (${signal ?? `code ${String(code)}`}); restarting in ${delay} ms`,
      );
      setTimeout(() => {
        if (!supervised.stopping) void launch().catch(() => undefined);
      }, delay);
    });
    return waitForMessage(child, 'ready');
  };
  return launch();
}

export async function runSupervisor(): Promise<void> {
  setLogProcess('supervisor');
  routeConsoleToLog('console');
  const port = Number(process.env.PORT ?? 3000);
  const dataDir = path.resolve(process.env.FLOTILLA_DATA_DIR ?? '.data');
  const database: Supervised = { name: 'database', restarts: 0, stopping: false };
  const web: Supervised = { name: 'web', restarts: 0, stopping: false };
  const worker: Supervised = { name: 'worker', restarts: 0, stopping: false };

  let shuttingDown = false;
  const shutdown = async (reason: string, exitCode: number) => {
    if (shuttingDown) return;
    shuttingDown = true;
    log.info({ reason }, `stopping (${reason}): web, then worker, then database`);
    for (const supervised of [web, worker, database]) {
      supervised.stopping = true;
      await stopChild(supervised.child);
    }
    log.info('stopped');
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void shutdown('SIGINT', 0));
  process.on('SIGTERM', () => void shutdown('SIGTERM', 0));

  try {
    // Checked first: a mistyped limit stops the start before anything is built or started.
    const webNodeArgs = webHeapArguments(process.env);
    buildIfNeeded(root);
    let databaseUrl = process.env.DATABASE_URL;
    if (!databaseUrl) {
      database.child = startChild('database', {
        ...process.env,
        FLOTILLA_DATA_DIR: dataDir,
      });
      const ready = await waitForMessage<{ url: string; folder: string }>(database.child, 'ready');
      databaseUrl = ready.url;
      log.info({ folder: ready.folder }, `embedded PostgreSQL running, data in ${ready.folder}`);
    }
    await migrate(databaseUrl);
    await prepareInstallation(databaseUrl);
    for (const name of BOOTSTRAP_SECRETS) Reflect.deleteProperty(process.env, name);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      FLOTILLA_INSTANCE_ID: process.env.FLOTILLA_INSTANCE_ID ?? defaultInstanceId(port),
    };
    await Promise.all([supervise(web, env, webNodeArgs), supervise(worker, env)]);
    const host =
      process.env.FLOTILLA_HOST && process.env.FLOTILLA_HOST !== '0.0.0.0' ? process.env.FLOTILLA_HOST : 'localhost';
    const url = `http://${host}:${port}/`;
    log.info(
      { url, instanceId: env.FLOTILLA_INSTANCE_ID },
      `ready: ${url} (instance ${String(env.FLOTILLA_INSTANCE_ID)})`,
    );
  } catch (error) {
    // A start-up error's message is the whole story for the operator; anything else gets its stack too.
    if (error instanceof StartupError) log.error(error.message);
    else log.error({ err: error }, `cannot start: ${(error as Error).message}`);
    await shutdown('start-up failed', 1);
  }
}
