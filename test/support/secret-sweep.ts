// Secrets never leak, over a whole `npm test` run (issue 34, item 5). The run's own fixed secrets — the console
// admin's password, the test brokers' Basic credentials, the installation key the workers are given — are searched
// for in clear and in the encodings they would leak in: in every product log line the run prints (the web runtimes,
// workers and scrapes inside the test processes write JSON lines to standard output, which scripts/test.ts reads), in
// every started app's output (app-process.ts, when it stops) and in every row of every test database just before it
// is dropped (database.ts). Findings go to files in FLOTILLA_SECRET_SWEEP_DIR; scripts/test.ts prints them and fails
// the run on any. A file's own secrets (a token it made, a user's password) are secrets-at-rest.int.test.ts's part.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { TEST_ADMIN } from './sign-in.ts';

export const SWEEP_DIR_VARIABLE = 'FLOTILLA_SECRET_SWEEP_DIR';

/** Buffer.alloc(32, 7) in base64: the key worker-kit.ts and worker-process.ts give the processes they start. */
const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');
const BROKER_BASIC = Buffer.from('admin:admin').toString('base64');
const base64 = (text: string) => Buffer.from(text).toString('base64');

/** Each needle is distinctive enough that finding it is a leak (the brokers' password `admin` alone is not). */
const SWEPT_SECRETS: ReadonlyArray<{ readonly name: string; readonly needle: string }> = [
  { name: 'the console admin password', needle: TEST_ADMIN.password },
  { name: 'the console admin password in base64', needle: base64(TEST_ADMIN.password) },
  { name: "the console admin's Basic credentials", needle: base64(`${TEST_ADMIN.username}:${TEST_ADMIN.password}`) },
  { name: "the test brokers' Basic credentials", needle: BROKER_BASIC },
  { name: 'the installation key of the test workers', needle: TEST_SECRET_KEY },
];

/** The names of the secrets found in `text`. */
export function secretsIn(text: string): string[] {
  return SWEPT_SECRETS.filter(({ needle }) => text.includes(needle)).map(({ name }) => name);
}

/** A product log line: one JSON object per line, as src/base/log prints it. Test output (a diff) is not searched. */
export const isLogLine = (line: string) => line.startsWith('{"level":');

/** Records what was searched and what was found there, when the run sweeps (scripts/test.ts sets the folder). */
export function recordSweep(where: string, searched: number, found: readonly string[]): void {
  const folder = process.env[SWEEP_DIR_VARIABLE];
  if (!folder) return;
  const line = JSON.stringify({ where, searched, found });
  appendFileSync(path.join(folder, `sweep-${process.pid}.jsonl`), `${line}\n`);
}

/** Every table of a database (partitions through their parent), each row as text, in one statement. */
export async function sweepDatabase(
  query: (sql: string, values?: unknown[]) => Promise<{ rows: Array<Record<string, unknown>> }>,
  name: string,
): Promise<void> {
  if (!process.env[SWEEP_DIR_VARIABLE]) return;
  const { rows: tables } = await query(
    `SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'`,
  );
  const names = (tables as Array<{ name: string }>).map((table) => table.name);
  const found: string[] = [];
  if (names.length > 0) {
    const patterns = SWEPT_SECRETS.map(({ needle }) => `%${needle.replace(/[\\%_]/g, '\\$&')}%`);
    const { rows } = await query(
      names
        .map(
          (table) =>
            `SELECT ${literal(table)} AS tbl, s.i::int AS secret, count(*)::int AS n FROM ${table} t,
                    unnest($1::text[]) WITH ORDINALITY AS s(p, i) WHERE t::text LIKE s.p GROUP BY s.i`,
        )
        .join(' UNION ALL '),
      [patterns],
    );
    for (const row of rows)
      found.push(`${SWEPT_SECRETS[Number(row.secret) - 1]?.name ?? '?'} in ${String(row.tbl)} (${String(row.n)} rows)`);
  }
  recordSweep(`database ${name}`, names.length, found);
}

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
