// Column references of the grammar: a header by name, a property as properties.key, properties."key",
// properties['key'] or properties->'key', a JSON body path as body->'customer'->>'id' or body['customer']['id'].
import { HEADER_FIELDS, type Field, type HeaderName } from './plan.ts';
import { columnNameOf, isNode, nodesOf, nodeType, sourceText, stringLiteral, stringOf, type AstNode } from './ast.ts';
import type { QueryText } from './query-text.ts';

const HEADERS = new Set<string>(HEADER_FIELDS);
const COLUMN_LIST = `${HEADER_FIELDS.join(', ')}, properties.<key>, body`;
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The field a node names, or undefined when the node is no column reference at all (a literal, a call). */
export function fieldOf(node: AstNode, query: QueryText, from: number): Field | undefined {
  if (nodeType(node) === 'column_ref') return columnField(node, query, from);
  if (nodeType(node) === 'binary_expr' && (node['operator'] === '->' || node['operator'] === '->>')) {
    return jsonStep(node, query, from);
  }
  return undefined;
}

/** The name a field gets as a result column when it has no alias. */
export function fieldLabel(field: Field): string {
  if (field.kind === 'header') return field.name;
  if (field.kind === 'property') {
    return PLAIN_KEY.test(field.key) ? `properties.${field.key}` : `properties['${field.key.replaceAll("'", "''")}']`;
  }
  return ['body', ...field.path.map((step) => `'${step.replaceAll("'", "''")}'`)].join('->');
}

function columnField(node: AstNode, query: QueryText, from: number): Field {
  const written = columnNameOf(node);
  const name = written === undefined ? undefined : sourceText(written);
  const table = stringOf(node['table']);
  const schema = stringOf(node['schema']);
  if (name === undefined) {
    return query.fail(
      `This column reference is not part of the grammar; body paths are written body->'customer'->>'id'`,
      'body',
      from,
    );
  }
  if (name === '*') return query.fail('* stands alone: SELECT * or a list of columns', '*', from);
  const indexes = nodesOf(node['array_index']);
  if (schema !== undefined || (table !== undefined && table.toLowerCase() !== 'properties')) {
    const written = [schema, table, name].filter((part) => part !== undefined).join('.');
    const hint = (schema ?? table)?.toLowerCase() === 'body' ? `; body paths are written body->'customer'->>'id'` : '';
    return query.fail(`Unknown column "${written}"${hint}`, schema ?? table, from);
  }
  if (table !== undefined) {
    if (indexes.length > 0) return query.fail(`A property is one key: properties.key or properties['key']`, '[', from);
    return { kind: 'property', key: name };
  }
  const lower = name.toLowerCase();
  const quoted =
    isNode(node['column']) &&
    isNode(node['column']['expr']) &&
    nodeType(node['column']['expr']) === 'double_quote_string';
  if (HEADERS.has(lower) && !quoted) {
    if (indexes.length > 0) return query.fail(`${lower} is a header, it has no keys`, '[', from);
    return { kind: 'header', name: lower as HeaderName };
  }
  if (lower === 'properties' && !quoted) {
    if (indexes.length !== 1) {
      return query.fail(`properties needs one key: properties.key or properties['key with dots']`, name, from);
    }
    return { kind: 'property', key: bracketKey(indexes[0], query, from) };
  }
  if (lower === 'body' && !quoted)
    return { kind: 'body', path: indexes.map((index) => bracketKey(index, query, from)) };
  const hint = quoted ? '; double quotes name a column, strings take single quotes' : '';
  return query.fail(`Unknown column "${name}"${hint}; the columns are ${COLUMN_LIST}`, name, from);
}

function bracketKey(index: AstNode | undefined, query: QueryText, from: number): string {
  const key = index && isNode(index['index']) ? stepOf(index['index']) : undefined;
  if (key === undefined) return query.fail(`A key in brackets is a quoted string, e.g. ['order-id']`, '[', from);
  return key;
}

/** A string key, or a whole number for an element of a JSON array. */
function stepOf(node: AstNode): string | undefined {
  const type = nodeType(node);
  if (type === 'single_quote_string' || type === 'string') return stringLiteral(node['value']);
  if (type === 'number' && Number.isInteger(node['value']) && (node['value'] as number) >= 0) {
    return String(node['value']);
  }
  return undefined;
}

function jsonStep(node: AstNode, query: QueryText, from: number): Field {
  const operator = String(node['operator']);
  const left = isNode(node['left']) ? node['left'] : undefined;
  const right = isNode(node['right']) ? stepOf(node['right']) : undefined;
  if (right === undefined) {
    return query.fail(`${operator} takes a quoted key or an array index, e.g. body->'customer'`, operator, from);
  }
  const isBareProperties =
    left !== undefined &&
    nodeType(left) === 'column_ref' &&
    left['table'] == null &&
    columnNameOf(left)?.toLowerCase() === 'properties' &&
    nodesOf(left['array_index']).length === 0;
  if (isBareProperties) return { kind: 'property', key: right };
  const base = left === undefined ? undefined : fieldOf(left, query, from);
  if (base?.kind !== 'body') {
    return query.fail(`${operator} steps into the JSON body only: body->'customer'->>'id'`, operator, from);
  }
  return { kind: 'body', path: [...base.path, right] };
}
