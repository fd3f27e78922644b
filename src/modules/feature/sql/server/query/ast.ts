// Reading node-sql-parser's tree defensively: its typings are loose, so every node is an unknown record narrowed here.
export type AstNode = Readonly<Record<string, unknown>>;

export function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function nodeType(node: AstNode): string {
  return typeof node['type'] === 'string' ? node['type'] : '';
}

export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function nodesOf(value: unknown): AstNode[] {
  return Array.isArray(value) ? value.filter(isNode) : [];
}

/** Where the parser says a node starts (it records this for operators and function calls only). */
export function startOf(node: AstNode): number | undefined {
  const loc = node['loc'];
  if (!isNode(loc) || !isNode(loc['start'])) return undefined;
  const offset = loc['start']['offset'];
  return typeof offset === 'number' ? offset : undefined;
}

/** A column reference's own name: `{ expr: { type, value } }` in this dialect, a bare string in others. */
export function columnNameOf(node: AstNode): string | undefined {
  const column = node['column'];
  if (typeof column === 'string') return column;
  if (isNode(column) && isNode(column['expr'])) return stringOf(column['expr']['value']);
  return undefined;
}

/** The function's name as written, e.g. `now`. */
export function functionNameOf(node: AstNode): string {
  const name = node['name'];
  if (typeof name === 'string') return name;
  if (isNode(name)) {
    const parts = nodesOf(name['name']);
    return parts.map((part) => stringOf(part['value']) ?? '').join('.');
  }
  return '';
}

export function functionArgsOf(node: AstNode): AstNode[] {
  const args = node['args'];
  return isNode(args) ? nodesOf(args['value']) : [];
}

/**
 * Stands in for every backslash while the parser reads the text (same length, so positions hold): node-sql-parser
 * reads some backslash sequences in strings C-style (`\n`, `\u0041`) and others not, where PostgreSQL's standard
 * strings take a backslash as itself. Strings and names taken from the tree get their backslashes back here.
 */
export const BACKSLASH_STAND_IN = '\uE000';

/** A name (a quoted identifier, an alias, a property key) as written. */
export function sourceText(value: string): string {
  return value.replaceAll(BACKSLASH_STAND_IN, '\\');
}

/** A single-quoted string's value: the parser keeps a doubled quote doubled. */
export function stringLiteral(value: unknown): string {
  return sourceText(String(value)).replaceAll("''", "'");
}
