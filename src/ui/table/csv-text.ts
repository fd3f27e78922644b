// The text of an exported CSV file. Papa Parse quotes separators, quotes and line breaks; a cell starting with
// `= + - @`, a tab or a carriage return is also prefixed with a single quote (OWASP's advice against CSV formula
// injection), so a queue named `=HYPERLINK(…)` opens in a spreadsheet as text, never as a formula. Numbers and
// booleans are written as they are: a negative rate is a number, not a formula.
import Papa from 'papaparse';

export interface CsvColumn<Row> {
  readonly header: string;
  readonly value: (row: Row) => string | number | boolean | null;
}

/** Papa Parse's own pattern (`/^[=+\-@\t\r].*$/`) misses a cell whose formula is followed by a line break. */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvText<Row>(columns: readonly CsvColumn<Row>[], rows: readonly Row[]): string {
  return Papa.unparse(
    {
      fields: columns.map((column) => column.header),
      data: rows.map((row) => columns.map((column) => column.value(row) ?? '')),
    },
    { escapeFormulae: FORMULA_START },
  );
}
