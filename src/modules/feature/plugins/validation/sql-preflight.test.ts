// The preflight's allowlist from the inside: the plain DDL a plugin needs passes, each refusal names its statement,
// and the splitter agrees with PostgreSQL about where statements end.
import { describe, expect, it } from 'vitest';
import { pluginSchemaName, preflightMigration } from './sql-preflight.ts';
import { splitStatements } from './sql-statements.ts';

const check = (sql: string) => preflightMigration('migrations/001-a.sql', sql, 'naming-policy');

describe('preflightMigration', () => {
  it('names the schema plugin_<id> with - as _', () => {
    expect(pluginSchemaName('naming-policy')).toBe('plugin_naming_policy');
  });

  it.each([
    'CREATE TABLE IF NOT EXISTS t (id bigserial PRIMARY KEY, name text NOT NULL UNIQUE, at timestamptz DEFAULT current_timestamp)',
    'CREATE TABLE plugin_naming_policy.t (id uuid DEFAULT gen_random_uuid(), other uuid REFERENCES u (id) ON DELETE CASCADE)',
    'CREATE UNIQUE INDEX IF NOT EXISTS t_name ON t USING btree (lower(name)) WHERE name IS NOT NULL',
    'CREATE SEQUENCE s START 10',
    "ALTER TABLE t ADD COLUMN note text DEFAULT 'none'",
    'ALTER TABLE t ALTER COLUMN note SET NOT NULL',
    'ALTER TABLE t DROP COLUMN note',
    'ALTER TABLE t ADD CONSTRAINT t_positive CHECK (length(name) > 0)',
    'ALTER TABLE t RENAME COLUMN name TO title',
    "ALTER TABLE t ADD COLUMN n bigint DEFAULT nextval('plugin_naming_policy.s'::regclass)",
    'DROP INDEX t_name',
    'DROP SEQUENCE s',
    'DROP TABLE IF EXISTS t',
    "COMMENT ON COLUMN t.name IS 'the queue'",
    '-- just a comment\n/* and /* a nested */ one */',
  ])('allows %s', (sql) => {
    expect(check(sql)).toEqual([]);
  });

  it('numbers the statement each refusal is about', () => {
    const findings = check(
      'CREATE TABLE a (b int);\nCREATE TABLE c (d int DEFAULT pg_sleep(1));\nGRANT ALL ON a TO x;',
    );
    expect(findings.map((finding) => [finding.code, finding.message.split(':')[0]])).toEqual([
      ['sql-function-call', 'migrations/001-a.sql, statement 2'],
      ['sql-statement-not-allowed', 'migrations/001-a.sql, statement 3'],
    ]);
  });

  it('refuses a function qualified with a schema even when its name is allowed', () => {
    expect(check('CREATE TABLE a (b timestamptz DEFAULT pg_catalog.now())').map((finding) => finding.code)).toContain(
      'sql-function-call',
    );
  });
});

describe('splitStatements', () => {
  it('splits at semicolons outside strings, quoted names and (nested) comments', () => {
    const split = splitStatements(`a 'x;''y'; "b;c" -- d;\n; /* e; /* f; */ g; */ h;`);
    expect(split).toEqual({ ok: true, statements: [`a 'x;''y'`, `"b;c" -- d;`, '/* e; /* f; */ g; */ h'] });
  });

  it('refuses what never closes', () => {
    expect(splitStatements("a 'b").ok).toBe(false);
    expect(splitStatements('a /* /* */').ok).toBe(false);
  });
});
