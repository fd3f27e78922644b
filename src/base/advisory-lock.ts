// PostgreSQL advisory locks under named keys: one place decides how a (namespace, name) pair becomes a lock key, so
// the migrations, the job scheduler, the security setup, OIDC provisioning and cluster ownership can never collide
// (before this, four key spaces were kept apart by comments). The key is one bigint:
// hashtextextended('<namespace>:<name>', 0). Session locks that must outlive a request are held by SessionLocks, on a
// connection of their own: when it breaks, every lock it held is gone at once, and its owner is told.
import pg from 'pg';
import { logger } from '@/base/log/log.ts';

const log = logger('locks');

/** Every namespace of the installation. Add one here; never reuse a name for another purpose. */
export type LockNamespace =
  | 'migrations'
  | 'jobs'
  | 'security.setup'
  | 'security.administrators'
  | 'identity-oidc.provisioning'
  | 'clusters.owner'
  | 'scrape.queue-total'
  | 'apitokens.owner'
  | 'sql.capture'
  | 'brokerconfig.apply'
  | 'plugins.operation'
  | 'plugins.jobs'
  | 'audit.owner';

/** The text that is hashed into the key; exported so tests can show distinct namespaces never meet. */
export function lockKeyText(namespace: LockNamespace, name = ''): string {
  return `${namespace}:${name}`;
}

const KEY = 'hashtextextended($1, 0)';

export interface Queryable {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- callers name the rows' shape
  query<Row extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<{ rows: Row[] }>;
}

/** Waits for a session lock (held until `unlockSession` or the connection ends). */
export async function lockSession(client: Queryable, namespace: LockNamespace, name = ''): Promise<void> {
  await client.query(`SELECT pg_advisory_lock(${KEY})`, [lockKeyText(namespace, name)]);
}

/** Takes a session lock if it is free; answers whether it did. */
export async function tryLockSession(client: Queryable, namespace: LockNamespace, name = ''): Promise<boolean> {
  const result = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${KEY}) AS locked`, [
    lockKeyText(namespace, name),
  ]);
  return result.rows[0]?.locked === true;
}

export async function unlockSession(client: Queryable, namespace: LockNamespace, name = ''): Promise<void> {
  await client.query(`SELECT pg_advisory_unlock(${KEY})`, [lockKeyText(namespace, name)]);
}

/** A transaction-level lock on a pg client inside a transaction: held until the transaction ends. */
export async function lockInTransaction(client: Queryable, namespace: LockNamespace, name = ''): Promise<void> {
  await client.query(`SELECT 1 AS locked FROM pg_advisory_xact_lock(${KEY})`, [lockKeyText(namespace, name)]);
}

/** A transaction-level lock through Prisma's raw SQL: held until the transaction ends. */
export async function lockTransaction(
  tx: { $executeRaw(query: TemplateStringsArray, ...values: unknown[]): Promise<number> },
  namespace: LockNamespace,
  name = '',
): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${lockKeyText(namespace, name)}, 0))`;
}

// pg_locks shows a bigint advisory key as its high half in classid and its low half in objid, with objsubid 1.
const FREE_KEYS_SQL = `
  SELECT key FROM unnest($1::text[]) AS key
   WHERE NOT EXISTS (
     SELECT 1 FROM pg_locks held
      WHERE held.locktype = 'advisory' AND held.objsubid = 1 AND held.granted
        AND held.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND held.classid = ((hashtextextended(key, 0) >> 32) & 4294967295)::oid
        AND held.objid = (hashtextextended(key, 0) & 4294967295)::oid)`;

/**
 * Session locks of one namespace, all held on one dedicated connection. `onLost` runs when that connection breaks:
 * the locks are gone with it, and so is everything their holder owned.
 */
export class SessionLocks {
  private client: pg.Client | undefined;
  private readonly held = new Set<string>();
  // One operation at a time: two claims at once would otherwise open two connections (a lock taken on the one that
  // is then dropped is held by nobody's bookkeeping) or send a query while another runs on the same client.
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly connectionString: string,
    private readonly namespace: LockNamespace,
    private readonly onLost: (lost: readonly string[]) => void,
  ) {}

  holds(name: string): boolean {
    return this.held.has(name);
  }

  names(): string[] {
    return [...this.held];
  }

  tryAcquire(name: string): Promise<boolean> {
    return this.oneAtATime(async () => {
      if (this.held.has(name)) return true;
      const locked = await tryLockSession(await this.connection(), this.namespace, name);
      if (locked) this.held.add(name);
      return locked;
    });
  }

  release(name: string): Promise<void> {
    return this.oneAtATime(async () => {
      if (!this.held.delete(name) || !this.client) return;
      await unlockSession(this.client, this.namespace, name).catch(() => undefined);
    });
  }

  /** Of `names`, those no session of this database holds now: another instance's, or nobody's (pg_locks). */
  free(names: readonly string[]): Promise<string[]> {
    return this.oneAtATime(async () => {
      if (names.length === 0) return [];
      const keys = names.map((name) => lockKeyText(this.namespace, name));
      const result = await (await this.connection()).query<{ key: string }>(FREE_KEYS_SQL, [keys]);
      const free = new Set(result.rows.map((row) => row.key));
      return names.filter((_, index) => free.has(keys[index] ?? ''));
    });
  }

  private oneAtATime<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.queue.then(operation);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Gives up every lock by ending the connection (nothing can outlive it). */
  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.held.clear();
    await client?.end().catch(() => undefined);
  }

  private async connection(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: `flotilla-locks-${this.namespace}`,
    });
    client.on('error', (error) => {
      if (this.client !== client) return;
      log.error({ err: error, namespace: this.namespace }, 'the lock connection failed; every lock is given up');
      const lost = [...this.held];
      this.client = undefined;
      this.held.clear();
      this.onLost(lost);
    });
    await client.connect();
    this.client = client;
    return client;
  }
}
