import { describe, expect, it } from 'vitest';
import { csvText, type CsvColumn } from './csv-text.ts';

interface Row {
  readonly name: string;
  readonly count: number | null;
}

const COLUMNS: readonly CsvColumn<Row>[] = [
  { header: 'name', value: (row) => row.name },
  { header: 'count', value: (row) => row.count },
];

const cellsOf = (names: string[]) =>
  csvText(
    COLUMNS,
    names.map((name) => ({ name, count: -3 })),
  )
    .split('\r\n')
    .slice(1);

describe('csvText', () => {
  it('prefixes a single quote to cells a spreadsheet would run as a formula, quoted', () => {
    expect(cellsOf(['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tx', '\ry'])).toEqual([
      `"'=1+1",-3`,
      `"'+SUM(A1)",-3`,
      `"'-2+3",-3`,
      `"'@cmd",-3`,
      `"'\tx",-3`,
      `"'\ry",-3`,
    ]);
  });

  it('escapes a formula followed by a line break too', () => {
    expect(csvText(COLUMNS, [{ name: '=HYPERLINK("http://evil")\nok', count: 1 }])).toBe(
      `name,count\r\n"'=HYPERLINK(""http://evil"")\nok",1`,
    );
  });

  it('leaves ordinary text, numbers and empty cells alone', () => {
    expect(
      csvText(COLUMNS, [
        { name: 'orders.01', count: -5 },
        { name: 'a,"b"', count: null },
      ]),
    ).toBe('name,count\r\norders.01,-5\r\n"a,""b""",');
  });
});
