// The schema-change preflight for a plugin's `migrations/*.sql`: only plain DDL on the plugin's own schema passes.
// Each statement is parsed with a real PostgreSQL parser (pgsql-ast-parser) and checked against an allowlist of
// statement kinds; then its whole tree is searched for anything that could run code or reach outside the schema:
// another schema's name, a function call beyond a few harmless ones, a subquery. Whatever the parser cannot read is
// refused rather than guessed at.
import { parse, type Statement } from 'pgsql-ast-parser';
import type { Finding } from './finding.ts';
import { splitStatements } from './sql-statements.ts';

const ALLOWED_STATEMENTS = new Set([
  'create table',
  'create index',
  'create sequence',
  'alter table',
  'drop table',
  'drop index',
  'drop sequence',
  'comment',
]);
const ALLOWED_ALTERATIONS = new Set([
  'add column',
  'drop column',
  'alter column',
  'add constraint',
  'drop constraint',
  'rename column',
  'rename',
]);
const ALLOWED_COMMENT_TARGETS = new Set(['table', 'column']);
/** Functions a default, check or index expression may call: they read the clock, make ids or tidy text. */
const ALLOWED_FUNCTIONS = new Set(['now', 'gen_random_uuid', 'nextval', 'lower', 'upper', 'length']);
const QUERY_NODES = new Set([
  'select',
  'union',
  'union all',
  'with',
  'with recursive',
  'values',
  'insert',
  'update',
  'delete',
]);
/** First words of statements the parser does not know but that are refused by name, so the reason is clear. */
const DENIED_OPENINGS =
  /^(?:copy|call|do|set|reset|grant|revoke|listen|notify|unlisten|load|execute|prepare|vacuum|analyze|cluster|truncate|lock|security|reindex|refresh|import|alter\s+(?:system|role|user|database|schema|default|function|extension)|create\s+(?:(?:or\s+replace\s+)?(?:function|procedure|trigger|rule|view|aggregate|operator|language|cast|event|policy|publication|subscription|server|foreign|transform|conversion|access|statistics|type|domain|collation|materialized|database|tablespace)|extension|schema|role|user|group)|drop\s+(?:function|procedure|trigger|rule|view|extension|schema|role|user|owned|database|type|policy))\b/i;

/** The schema a plugin's tables live in: `plugin_` and its id, with `-` as `_` so it needs no quoting. */
export function pluginSchemaName(pluginId: string): string {
  return `plugin_${pluginId.replaceAll('-', '_')}`;
}

export function preflightMigration(entry: string, sql: string, pluginId: string): Finding[] {
  const findings: Finding[] = [];
  const add = (code: string, index: number | undefined, reason: string): void => {
    findings.push({ code, entry, message: `${entry}${index === undefined ? '' : `, statement ${index}`}: ${reason}` });
  };
  // Refused before parsing: the lexical features on which two SQL readers could disagree about where a string ends.
  if (sql.includes('$')) {
    add(
      'sql-dollar-quote',
      undefined,
      'dollar signs (dollar-quoted bodies, `$1`) are not allowed in plugin migrations.',
    );
  }
  if (sql.includes('\\'))
    add('sql-backslash', undefined, 'backslashes (escape strings, psql commands) are not allowed.');
  if (sql.includes('\0')) add('sql-unparsable', undefined, 'the file contains a NUL character.');
  if (findings.length > 0) return findings;
  const split = splitStatements(sql);
  if (!split.ok) {
    add('sql-unparsable', undefined, `${split.reason}, so it could not be read as plain DDL.`);
    return findings;
  }
  const schema = pluginSchemaName(pluginId);
  split.statements.forEach((text, position) => {
    const index = position + 1;
    let statements: Statement[];
    try {
      statements = parse(text);
    } catch {
      const opening = DENIED_OPENINGS.exec(text.replace(/^(?:\s|--[^\n]*\n?)+/, ''));
      if (opening)
        add(
          'sql-statement-not-allowed',
          index,
          `${opening[0].toUpperCase()} is not allowed; plugins may only change tables, indexes and sequences.`,
        );
      else add('sql-unparsable', index, 'the statement could not be read as plain DDL.');
      return;
    }
    // One piece of text, one statement: if the parser saw more, the two readers disagree and the text is smuggling.
    if (statements.length !== 1) {
      add('sql-unparsable', index, 'the statement could not be read as one plain DDL statement.');
      return;
    }
    for (const [code, reason] of checkStatement(statements[0] as Statement, schema)) add(code, index, reason);
  });
  return findings;
}

function checkStatement(statement: Statement, schema: string): [string, string][] {
  const problems: [string, string][] = [];
  const kind = statement.type;
  if (!ALLOWED_STATEMENTS.has(kind)) {
    return [
      [
        'sql-statement-not-allowed',
        `${kind.toUpperCase()} is not allowed; plugins may only change tables, indexes and sequences.`,
      ],
    ];
  }
  if (
    statement.type === 'create table' &&
    (statement.temporary || statement.inherits || statement.columns.some((column) => column.kind !== 'column'))
  ) {
    problems.push(['sql-statement-not-allowed', 'temporary tables, INHERITS and LIKE are not allowed.']);
  }
  if (statement.type === 'alter table') {
    for (const change of statement.changes) {
      if (!ALLOWED_ALTERATIONS.has(change.type)) {
        problems.push(['sql-statement-not-allowed', `ALTER TABLE … ${change.type.toUpperCase()} is not allowed.`]);
      }
    }
  }
  if (statement.type === 'comment' && !ALLOWED_COMMENT_TARGETS.has(statement.on.type)) {
    problems.push(['sql-statement-not-allowed', `COMMENT ON ${statement.on.type.toUpperCase()} is not allowed.`]);
  }
  walk(statement, (node) => {
    if (typeof node.schema === 'string' && node.schema !== schema) {
      problems.push([
        'sql-foreign-schema',
        `it names the schema "${node.schema}"; plugins may only use their own, ${schema}.`,
      ]);
    }
    if (node.tablespace !== undefined && node.tablespace !== null) {
      problems.push([
        'sql-statement-not-allowed',
        'TABLESPACE is not allowed; the plugin’s objects stay where its schema is.',
      ]);
    }
    const type = node.type;
    if (typeof type === 'string' && QUERY_NODES.has(type)) {
      problems.push(['sql-subquery', 'it contains a query; migrations hold plain DDL only.']);
    }
    if (type === 'call') {
      const reason = callProblem(node, schema);
      if (reason) problems.push(['sql-function-call', reason]);
    }
  });
  return problems;
}

type AstNode = Record<string, unknown>;

/** Every object in the tree, with an explicit stack: a deeply nested expression must not overflow the call stack. */
function walk(root: unknown, visit: (node: AstNode) => void): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...(node as unknown[]));
    } else if (typeof node === 'object' && node !== null) {
      visit(node as AstNode);
      for (const [key, value] of Object.entries(node)) if (key !== '_location') stack.push(value);
    }
  }
}

function callProblem(node: AstNode, schema: string): string | undefined {
  const fn = node.function as { name?: string; schema?: string } | undefined;
  const name = fn?.name ?? '';
  if (fn?.schema !== undefined || !ALLOWED_FUNCTIONS.has(name)) {
    return `it calls ${fn?.schema ? `${fn.schema}.` : ''}${name}(); expressions may only call ${[...ALLOWED_FUNCTIONS].join('(), ')}().`;
  }
  if (name !== 'nextval') return undefined;
  // nextval('seq') or nextval('seq'::regclass), naming a sequence in the plugin's own schema.
  const args = node.args as AstNode[] | undefined;
  const only = args?.length === 1 ? args[0] : undefined;
  const literal = only?.type === 'cast' ? (only.operand as AstNode | undefined) : only;
  const target = literal?.type === 'string' ? String(literal.value) : undefined;
  if (
    target === undefined ||
    !/^[a-z_][a-z0-9_]*$/.test(target.startsWith(`${schema}.`) ? target.slice(schema.length + 1) : target)
  ) {
    return 'nextval() must name one of the plugin’s own sequences, as a plain string.';
  }
  return undefined;
}
