// The SQL console's grammar: one SELECT over one address pattern, parsed by node-sql-parser (PostgreSQL dialect) and
// then narrowed to the documented subset (docs/sql.md). Anything outside it is refused with a `sql-syntax` problem
// that points at the offending token; docs/adr/0021-sql-grammar-with-a-parser.md says why a parser and not our own.
// The PostgreSQL-only build: a tenth of the size of the package's all-dialect entry. It is CommonJS that Node's ESM
// loader (the worker's bundle, tsx scripts) exposes only as `default`, while bundlers (Next, Vitest) give its names.
import * as sqlParserModule from 'node-sql-parser/build/postgresql.js';
import type { Column, Field, QueryPlan } from './plan.ts';
import { BACKSLASH_STAND_IN, isNode, nodesOf, nodeType, sourceText, stringOf, type AstNode } from './ast.ts';
import { fieldLabel, fieldOf } from './fields.ts';
import { predicateOf } from './where.ts';
import { QueryText } from './query-text.ts';
import { endOf, tokenAt } from './tokens.ts';
import { addressPatternOf } from './from-pattern.ts';

export const MAX_QUERY_LENGTH = 10_000;

const { Parser } = (sqlParserModule as { default?: typeof sqlParserModule }).default ?? sqlParserModule;
const parser = new Parser();
const PARSE_OPTIONS = { database: 'postgresql', parseOptions: { includeLocations: true } };

/** Parts of a SELECT the grammar refuses, by the parser's key, with the keyword to point at. */
const REFUSED_PARTS: ReadonlyArray<readonly [string, string, string]> = [
  ['with', 'WITH', 'WITH (common table expressions) is not supported'],
  ['groupby', 'GROUP', 'GROUP BY is not supported: the console lists messages, it does not aggregate'],
  ['having', 'HAVING', 'HAVING is not supported: the console lists messages, it does not aggregate'],
  ['window', 'WINDOW', 'WINDOW is not supported'],
  ['_next', 'UNION', 'UNION, INTERSECT and EXCEPT are not supported: a query reads one address pattern'],
];
const KNOWN_PARTS = new Set([
  'type',
  'options',
  'distinct',
  'columns',
  'into',
  'from',
  'where',
  'orderby',
  'limit',
  'set_op',
  'loc',
  'collate',
  ...REFUSED_PARTS.map(([key]) => key),
]);

/** Parses the console's text into a plan; `now` resolves now() so one query means one instant throughout. */
export function parseQuery(text: string, now: Date): QueryPlan {
  const query = new QueryText(text.length > MAX_QUERY_LENGTH ? text.slice(0, MAX_QUERY_LENGTH) : text);
  if (text.length > MAX_QUERY_LENGTH) {
    query.failAt(
      `The query is ${text.length} characters long; the limit is ${MAX_QUERY_LENGTH}`,
      endOf(text.slice(0, MAX_QUERY_LENGTH)),
      '',
    );
  }
  if (query.tokens.length === 0) query.fail('The query is empty: write SELECT * FROM "orders.*"');
  const standIn = text.indexOf(BACKSLASH_STAND_IN);
  if (standIn >= 0) {
    query.failAt(
      'The query holds the private-use character U+E000, which it cannot',
      endOf(text.slice(0, standIn)),
      BACKSLASH_STAND_IN,
    );
  }
  const statement = statementOf(query);
  refuseOtherParts(statement, query);
  const selectAt = query.offsetOf('SELECT');
  const fromAt = query.offsetOf('FROM', selectAt);
  const columns = columnsOf(statement, query, selectAt);
  const whereAt = query.offsetOf('WHERE', fromAt);
  return {
    addressPattern: fromOf(statement, query, fromAt),
    columns,
    where: isNode(statement['where']) ? predicateOf(statement['where'], query, now, whereAt) : null,
    orderBy: orderByOf(statement, columns, query, query.offsetOf('ORDER', whereAt)),
    limit: limitOf(statement, query),
  };
}

function statementOf(query: QueryText): AstNode {
  let tree: unknown;
  try {
    tree = parser.astify(query.text.replaceAll('\\', BACKSLASH_STAND_IN), PARSE_OPTIONS);
  } catch (error) {
    return refuseSyntax(error, query);
  }
  const statements = Array.isArray(tree) ? tree.filter(isNode) : isNode(tree) ? [tree] : [];
  if (statements.length > 1) {
    const semicolon = query.tokens.findIndex((token, index) => token.text === ';' && index < query.tokens.length - 1);
    const next = query.tokens[semicolon + 1];
    return query.fail('One statement at a time: remove everything after the first ;', next?.text, next?.offset ?? 0);
  }
  const statement = statements[0];
  if (!statement) return query.fail('The query is empty: write SELECT * FROM "orders.*"');
  if (nodeType(statement) !== 'select') {
    const first = query.tokens[0]?.text ?? '';
    return query.fail(`Only SELECT is allowed; ${first.toUpperCase()} is not`, first);
  }
  return statement;
}

function refuseSyntax(error: unknown, query: QueryText): never {
  const location =
    isNode(error) && isNode(error['location']) && isNode(error['location']['start'])
      ? error['location']['start']
      : undefined;
  if (!location || typeof location['offset'] !== 'number') {
    return query.fail('The query could not be read as SQL');
  }
  const offset = location['offset'];
  const token = tokenAt(query.tokens, offset);
  const found = token && token.offset <= offset ? token : undefined;
  const position = found ? { line: found.line, column: found.column, offset: found.offset } : endOf(query.text);
  const text = found?.text ?? '';
  const expected = expectedOf(error);
  const what = text === '' ? 'The query ends too early' : `Unexpected ${text}`;
  const hint = /^[*#]$/.test(text) ? `; a pattern with wildcards is quoted: FROM "orders.#"` : '';
  const wanted = expected.length > 0 ? `; expected ${expected.join(', ')}` : '';
  return query.failAt(`${what}${hint}${wanted}`, position, text);
}

/** The keywords and symbols the parser would have taken, at most eight (its full list is long and noisy). */
function expectedOf(error: unknown): string[] {
  const expected = isNode(error) ? nodesOf(error['expected']) : [];
  const texts = expected
    .filter((item) => item['type'] === 'literal')
    .map((item) => String(item['text']))
    .filter((text) => text !== '--' && text !== '/*' && text.trim() !== '');
  const unique = [...new Set(texts.map((text) => text.toUpperCase()))];
  return unique.length > 8 ? [...unique.slice(0, 8), '…'] : unique;
}

function refuseOtherParts(statement: AstNode, query: QueryText): void {
  for (const [key, keyword, detail] of REFUSED_PARTS) {
    const part = statement[key];
    if (part !== null && part !== undefined) query.fail(detail, keyword);
  }
  const distinct = statement['distinct'];
  if (isNode(distinct) && distinct['type'] != null) query.fail('DISTINCT is not supported', 'DISTINCT');
  const into = statement['into'];
  if (isNode(into) && into['position'] != null) query.fail('SELECT … INTO is not supported', 'INTO');
  for (const [key, value] of Object.entries(statement)) {
    if (!KNOWN_PARTS.has(key) && value !== null && value !== undefined && value !== false) {
      query.fail(`This part of SELECT (${key}) is not supported`);
    }
  }
}

function columnsOf(statement: AstNode, query: QueryText, from: number): readonly Column[] | '*' {
  const items = nodesOf(statement['columns']);
  const isStar = (item: AstNode): boolean =>
    isNode(item['expr']) && nodeType(item['expr']) === 'column_ref' && item['expr']['column'] === '*';
  if (
    items.length === 1 &&
    items[0] &&
    isStar(items[0]) &&
    items[0]['expr'] &&
    !stringOf((items[0]['expr'] as AstNode)['table'])
  ) {
    return '*';
  }
  return items.map((item) => {
    const expr = isNode(item['expr']) ? item['expr'] : {};
    if (isStar(item)) return query.fail('* stands alone: SELECT * or a list of columns', '*', from);
    const field = fieldOf(expr, query, from) ?? refuseColumn(expr, query, from);
    const written = stringOf(item['as']);
    const alias = written === undefined ? undefined : sourceText(written);
    return { field, name: alias ?? fieldLabel(field) };
  });
}

function refuseColumn(expr: AstNode, query: QueryText, from: number): never {
  if (nodeType(expr) === 'function') {
    const name = stringOf(isNode(expr['name']) ? nodesOf(expr['name']['name'])[0]?.['value'] : expr['name']) ?? '';
    return query.fail(`The function ${name}() is not supported in SELECT; list columns`, name, from);
  }
  return query.fail(
    'SELECT lists columns (headers, properties.<key>, body paths), not expressions or values',
    undefined,
    from + 6,
  );
}

function fromOf(statement: AstNode, query: QueryText, from: number): string {
  const sources = nodesOf(statement['from']);
  const [source, second] = sources;
  if (!source) return query.fail('FROM is missing: name an address or a pattern, e.g. FROM "orders.*"', 'SELECT');
  if (second) {
    const keyword = second['join'] ? 'JOIN' : ',';
    return query.fail(
      'A query reads one address or pattern: joins and lists of sources are not supported',
      keyword,
      from,
    );
  }
  if (isNode(source['expr']))
    return query.fail('Subqueries are not supported: FROM names an address or pattern', 'SELECT', from + 1);
  const table = stringOf(source['table']);
  if (table === undefined)
    return query.fail('FROM names an address or a pattern, e.g. FROM "orders.*"', undefined, from + 1);
  if (stringOf(source['as'])) {
    return query.fail('FROM takes no alias: columns are named without a prefix', stringOf(source['as']), from);
  }
  const db = stringOf(source['db']);
  const written = sourceText(db ? `${db}.${table}` : table);
  return addressPatternOf(written, query, from);
}

function orderByOf(
  statement: AstNode,
  columns: readonly Column[] | '*',
  query: QueryText,
  from: number,
): QueryPlan['orderBy'] {
  return nodesOf(statement['orderby']).map((item) => {
    const expr = isNode(item['expr']) ? item['expr'] : {};
    if (item['nulls'] != null)
      return query.fail('NULLS FIRST and NULLS LAST are not supported; nulls sort last', 'NULLS', from);
    const aliased = aliasField(expr, columns);
    const field: Field | undefined = aliased ?? fieldOf(expr, query, from);
    if (!field) return query.fail('ORDER BY names a column or an alias of one', undefined, from + 5);
    return { field, direction: item['type'] === 'DESC' ? 'desc' : 'asc' } as const;
  });
}

function aliasField(expr: AstNode, columns: readonly Column[] | '*'): Field | undefined {
  if (columns === '*' || nodeType(expr) !== 'column_ref' || expr['table'] != null) return undefined;
  const column = expr['column'];
  const name = isNode(column) && isNode(column['expr']) ? stringOf(column['expr']['value']) : undefined;
  return columns.find((candidate) => candidate.name === name && !isHeaderName(name))?.field;
}

function isHeaderName(name: string | undefined): boolean {
  return (
    name !== undefined &&
    [
      'id',
      'address',
      'queue',
      'node',
      'time',
      'priority',
      'durable',
      'expiration',
      'correlation_id',
      'reply_to',
    ].includes(name.toLowerCase())
  );
}

function limitOf(statement: AstNode, query: QueryText): number | null {
  const limit = statement['limit'];
  if (!isNode(limit)) return null;
  const values = nodesOf(limit['value']);
  if (limit['seperator'] === 'offset' || limit['seperator'] === ',' || values.length > 1) {
    return query.fail('OFFSET is not supported: narrow the query with WHERE time < …', 'OFFSET');
  }
  const [value] = values;
  if (!value) return null;
  const count = value['value'];
  if (nodeType(value) !== 'number' || typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
    return query.fail('LIMIT takes a whole number of rows, e.g. LIMIT 100', 'LIMIT');
  }
  return count;
}
