// What the benchmarks share: a fresh, migrated database on the benchmark PostgreSQL for one run (dropped after),
// the p50/p95 of repeated timings after a warm-up, and users with a built-in role made as an admin makes them.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { BrokerNode } from '@test/artemis/index.ts';
import { brokerMbean, jolokiaBulk } from '@test/jolokia.ts';
import { openDatabase, type Database } from '../src/base/db/database.ts';
import { migrate } from '../src/base/db/migrate.ts';

const ADMIN_URL = process.env.FLOTILLA_TEST_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** An empty database for a bench that starts Flotilla itself (it migrates it); `drop` removes it, connection and all. */
export async function createBenchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `flotilla_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE template0`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/**
 * Runs `work` on a new migrated database (opened, and its URL for a second pool of its own); the database is dropped
 * afterwards, whatever happened.
 */
export async function withBenchDatabase(
  applicationName: string,
  work: (db: Database, url: string) => Promise<void>,
  poolSize = 4,
): Promise<void> {
  const name = `flotilla_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const db = openDatabase(url.toString(), { poolSize, applicationName });
  try {
    await migrate(url.toString(), { log: () => undefined });
    await work(db, url.toString());
  } finally {
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** The median and 95th percentile of `runs` timings of `work`, after one untimed run (plans and caches warm). */
export async function timesMs(work: () => Promise<unknown>, runs: number): Promise<{ p50: number; p95: number }> {
  await work();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (share: number) => times[Math.min(times.length - 1, Math.ceil(share * times.length) - 1)] ?? NaN;
  return { p50: at(0.5), p95: at(0.95) };
}

export interface Credentials {
  readonly username: string;
  readonly password: string;
}

/**
 * `count` users holding the built-in role `roleName` everywhere, made over the API of the Flotilla at `baseUrl` as an
 * admin would (`adminHeaders`: a signed-in admin's cookie and CSRF token); answers their credentials.
 */
export async function usersWithRole(
  baseUrl: string,
  adminHeaders: Record<string, string>,
  roleName: 'viewer' | 'operator',
  count: number,
  passwordOf: (index: number) => string,
): Promise<Credentials[]> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method: 'POST',
      headers: { ...adminHeaders, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new Error(`POST ${path}: ${String(response.status)} ${await response.text()}`);
    return (await response.json()) as { user?: { id: string } };
  };
  const roles = (await (await fetch(`${baseUrl}/api/v1/roles`, { headers: adminHeaders })).json()) as {
    items: { id: string; name: string }[];
  };
  const role = roles.items.find((candidate) => candidate.name === roleName);
  if (!role) throw new Error(`no ${roleName} role`);
  const users: Credentials[] = [];
  for (let index = 0; index < count; index++) {
    const credentials = { username: `${roleName}${String(index)}`, password: passwordOf(index) };
    const user = await post('/users', { ...credentials, mustChangePassword: false });
    await post('/grants', { userId: user.user?.id, roleId: role.id, scope: { kind: 'GLOBAL' } });
    users.push(credentials);
  }
  return users;
}

/** Anycast queues, each on its own address, made over Jolokia in bulks of 250. */
export async function createAnycastQueues(node: BrokerNode, names: readonly string[]): Promise<void> {
  const mbean = brokerMbean(node.name);
  const requests = names.map((name) => ({
    type: 'exec' as const,
    mbean,
    operation: 'createQueue(java.lang.String,boolean)',
    arguments: [JSON.stringify({ name, address: name, 'routing-type': 'ANYCAST' }), true],
  }));
  for (let at = 0; at < requests.length; at += 250) await jolokiaBulk(node, requests.slice(at, at + 250));
}
