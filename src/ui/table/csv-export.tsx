'use client';
// "Export CSV" for a list: every row of the current view (search, filters and sort as shown), fetched page after
// page from the same API the table reads, with progress, then saved as a file. `csvText` writes the CSV (quoting,
// separators inside values, line breaks, cells escaped against formula injection).
import { Button, Progress, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { csvText, type CsvColumn } from './csv-text.ts';

export interface CsvExportProps<Row> {
  /** File name without the extension. */
  readonly fileName: string;
  readonly columns: readonly CsvColumn<Row>[];
  /** One page of the current view (1-based), as the table's API answers it. */
  readonly fetchPage: (page: number, pageSize: number) => Promise<{ items: Row[]; total: number }>;
  /** At most this many rows are written; the file says so when the view holds more. */
  readonly maxRows?: number;
}

const PAGE_SIZE = 500;

export function CsvExport<Row>(props: CsvExportProps<Row>) {
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const cancelled = useRef(false);
  const isCancelled = () => cancelled.current;
  const maxRows = props.maxRows ?? 100_000;

  async function run() {
    cancelled.current = false;
    setError(null);
    const rows: Row[] = [];
    try {
      let total = Infinity;
      for (let page = 1; rows.length < Math.min(total, maxRows) && !isCancelled(); page++) {
        const answer = await props.fetchPage(page, PAGE_SIZE);
        total = answer.total;
        rows.push(...answer.items);
        setProgress({ done: rows.length, total: Math.min(total, maxRows) });
        if (answer.items.length === 0) break;
      }
      if (isCancelled()) return;
      const csv = csvText(props.columns, rows.slice(0, maxRows));
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      link.download = `${props.fileName}.csv`;
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setProgress(null);
    }
  }

  if (progress)
    return (
      <Button variant="default" onClick={() => (cancelled.current = true)} aria-label="Cancel the export">
        <Progress value={(progress.done / Math.max(progress.total, 1)) * 100} w={80} mr="xs" aria-hidden />
        {`${progress.done.toLocaleString('en')} of ${progress.total.toLocaleString('en')}`}
      </Button>
    );
  return (
    <>
      {error && (
        <Text size="xs" c="red" role="alert">
          Export failed: {error}
        </Text>
      )}
      <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => void run()}>
        Export CSV
      </Button>
    </>
  );
}
