// The run-wide secret sweep can fail (issue 34, item 5): a secret of the run put in a table, in a log line and in a
// started app's output is found and named; text around it that is no product log line (a test's own diff) is not
// searched; a clean database records its tables and nothing found.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretSweep } from '../../scripts/secret-sweep-run.ts';
import { createTestDatabase, queryDatabase, type TestDatabase } from '@test/database.ts';
import { recordSweep, secretsIn, SWEEP_DIR_VARIABLE, sweepDatabase } from '@test/secret-sweep.ts';
import { TEST_ADMIN } from '@test/sign-in.ts';

let database: TestDatabase;
let folder: string;
const before = process.env[SWEEP_DIR_VARIABLE];

beforeAll(async () => {
  database = await createTestDatabase();
  folder = mkdtempSync(path.join(tmpdir(), 'sweep-test-'));
  process.env[SWEEP_DIR_VARIABLE] = folder;
});

afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  if (before === undefined) Reflect.deleteProperty(process.env, SWEEP_DIR_VARIABLE);
  else process.env[SWEEP_DIR_VARIABLE] = before;
  // Dropped with the sweep pointed back at the run's folder (or none): the planted secret was taken out first.
  await database.drop();
});

const recorded = () =>
  readdirSync(folder).flatMap((file) =>
    readFileSync(path.join(folder, file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { where: string; searched: number; found: string[] }),
  );
const query = async (sql: string, values?: unknown[]) => ({ rows: await queryDatabase(database.url, sql, values) });

describe('the secret sweep', () => {
  it('searches every table of a database and names the one holding a secret', async () => {
    await sweepDatabase(query, 'clean');
    const clean = recorded().find((record) => record.where === 'database clean');
    expect(clean?.found).toEqual([]);
    expect(clean?.searched).toBeGreaterThan(50);

    await queryDatabase(database.url, 'CREATE TABLE leak_probe (note text)');
    await queryDatabase(database.url, 'INSERT INTO leak_probe VALUES ($1)', [
      `Basic ${Buffer.from('admin:admin').toString('base64')}`,
    ]);
    await sweepDatabase(query, 'leaky');
    const leaky = recorded().find((record) => record.where === 'database leaky');
    expect(leaky?.found).toEqual([
      expect.stringMatching(/^the test brokers' Basic credentials in public\.leak_probe \(1 rows\)$/),
    ]);
    await queryDatabase(database.url, 'DROP TABLE leak_probe');
  });

  it('finds a secret in a product log line of the run output, across chunks, and not in other output', () => {
    const sweep = new SecretSweep();
    const line = `{"level":"info","msg":"signed in","password":"${TEST_ADMIN.password}"}\n`;
    sweep.read(`- Expected: "${TEST_ADMIN.password}"\n`); // a test's own diff: not a log line
    sweep.read(`noise ${line.slice(0, 30)}`);
    sweep.read(line.slice(30));
    // Printed here, the found line would be found again by this run's own sweep: kept instead.
    const printed: string[] = [];
    expect(sweep.finish((text) => printed.push(text))).toBe(false);
    expect(printed).toEqual([
      expect.stringMatching(/^secret sweep: 1 log lines, .* 1 secrets found$/),
      expect.stringMatching(/^ {2}the console admin password in a log line: \{"level":"info","msg":"signed in"/),
    ]);
    const clean = new SecretSweep();
    clean.read('{"level":"info","msg":"nothing here"}\n');
    expect(clean.finish(() => undefined)).toBe(true);
  });

  it('names what it finds in text, and records a started app’s output', () => {
    expect(secretsIn(`key=${Buffer.alloc(32, 7).toString('base64')}`)).toEqual([
      'the installation key of the test workers',
    ]);
    expect(secretsIn('admin:admin in clear is no needle (too common)')).toEqual([]);
    recordSweep('the output of the app on port 1', 10, secretsIn(TEST_ADMIN.password));
    expect(recorded().find((record) => record.where === 'the output of the app on port 1')?.found).toEqual([
      'the console admin password',
    ]);
  });
});
