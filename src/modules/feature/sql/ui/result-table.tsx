'use client';
// The rows of an answer (or of the tail) in the one table: searched, sorted and paged here, its view in the URL under
// `rows.` (the tail's in the component: its rows are gone on reload), and exported as CSV as shown.
import { useMemo } from 'react';
import type { Column } from '@/ui/table/column.ts';
import type { CsvColumn } from '@/ui/table/csv-text.ts';
import { CsvExport } from '@/ui/table/csv-export.tsx';
import { DataTable } from '@/ui/table/data-table.tsx';
import { pageLocally, type ListStateApi } from '@/ui/table/list-state.ts';
import { localQuery } from '@/ui/table/local-query.ts';
import { cellText, ResultCell, sortValueOf } from './result-cells.tsx';

export interface ResultRow {
  /** Position in the answer (or the tail's sequence number): the row's key. */
  readonly key: string;
  readonly values: Readonly<Record<string, unknown>>;
}

const SEQUENCE = '#';
const rowText = (row: ResultRow) =>
  Object.values(row.values)
    .map((value) => String(cellText(value) ?? ''))
    .join(' ');
const sortValue = (row: ResultRow, field: string) =>
  field === SEQUENCE ? Number(row.key) : sortValueOf(row.values[field]);

export function ResultTable({
  tableId,
  columns,
  rows,
  list,
  fileName,
  empty,
  isFetching = false,
}: {
  tableId: string;
  columns: readonly string[];
  rows: readonly ResultRow[] | undefined;
  list: ListStateApi;
  fileName: string;
  empty: { title: string; description?: string };
  isFetching?: boolean;
}) {
  const tableColumns = useMemo<Column<ResultRow>[]>(
    () =>
      columns.map((name) => ({
        id: name,
        header: name,
        sortField: name,
        cell: (row) => <ResultCell value={row.values[name]} />,
      })),
    [columns],
  );
  const csvColumns = useMemo<CsvColumn<ResultRow>[]>(
    () => columns.map((name) => ({ header: name, value: (row) => cellText(row.values[name]) })),
    [columns],
  );
  const options = { text: rowText, sortValue };
  const query = localQuery(rows, list, options, { isFetching });
  return (
    <DataTable
      tableId={tableId}
      label="Rows"
      columns={tableColumns}
      rowKey={(row) => row.key}
      list={list}
      query={query}
      searchPlaceholder="Search the rows"
      empty={empty}
      toolbar={
        <CsvExport
          fileName={fileName}
          columns={csvColumns}
          // The whole view as shown (search and sort), not only its page.
          fetchPage={(page, pageSize) =>
            Promise.resolve(pageLocally(rows ?? [], { ...list.state, page, pageSize }, options))
          }
        />
      }
    />
  );
}
