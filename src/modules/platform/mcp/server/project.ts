// Projections: each tool answers with its own small shape, never the web DTO. These helpers pick the named fields
// of a procedure's answer and drop what an agent does not need (nulls, empty lists).
type Row = Record<string, unknown>;

export function asRow(value: unknown): Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Row) : {};
}

export function asRows(value: unknown): Row[] {
  return Array.isArray(value) ? value.map(asRow) : [];
}

/** The named fields of a row that carry something, in the order named. */
export function pick(row: Row, fields: readonly string[]): Row {
  const picked: Row = {};
  for (const field of fields) {
    const value = row[field];
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) continue;
    picked[field] = value;
  }
  return picked;
}

/** A list answer (`items`, `total`) as the tool shows it. */
export function pickList(answer: unknown, fields: readonly string[]): { total: unknown; items: Row[] } {
  const row = asRow(answer);
  return { total: row.total, items: asRows(row.items).map((item) => pick(item, fields)) };
}
