// One pg pool per process, shared by Prisma (through @prisma/adapter-pg) and by set-based SQL on hot paths.
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '@/generated/prisma/client.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('db');

export type { PrismaClient };
export type Transaction = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export interface Database {
  readonly pool: pg.Pool;
  readonly prisma: PrismaClient;
  query<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

export function openDatabase(
  connectionString: string,
  options: { poolSize: number; applicationName: string },
): Database {
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize,
    application_name: options.applicationName,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', (error) => log.warn({ err: error }, 'an idle connection failed; the pool replaces it'));
  // A client checked out of the pool has no listener of the pool's: a restart of PostgreSQL ending its connection
  // (a job's or a reconciler's lock held over broker calls) would be an unhandled 'error' event and end the process.
  // Its holder hears of it from its next query, and the pool drops it on release.
  pool.on('connect', (client) =>
    client.on('error', (error) => log.debug({ err: error }, 'a connection in use failed; its holder is told')),
  );
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    pool,
    prisma,
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await pool.query(sql, [...params]);
      return result.rows as Row[];
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/** The Database view of a pool and client someone else owns (a worker service's context): closing it is theirs. */
export function borrowedDatabase(pool: pg.Pool, prisma: PrismaClient): Database {
  return {
    pool,
    prisma,
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      return (await pool.query(sql, [...params])).rows as Row[];
    },
    close: () => Promise.resolve(),
  };
}
