'use client';
// One answer of the index or of a live read: the bounds reached and the source's notices above everything, how old
// it is, for a live read what the brokers filtered and each node's queues and POSTs, then the rows.
import { Stack } from '@mantine/core';
import { useMemo } from 'react';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import { useListState } from '@/ui/table/list-state.ts';
import { AnswerAge, BoundsReached, PushedDown, SourceNotices } from './answer-notes.tsx';
import { LiveNodes } from './live-nodes.tsx';
import { ResultTable, type ResultRow } from './result-table.tsx';
import { ROWS_PREFIX } from './use-sql-url.ts';

type Answer = RouterOutputs['sql']['query'];

export function SqlAnswer({ answer, isFetching, fileName }: { answer: Answer; isFetching: boolean; fileName: string }) {
  const list = useListState({ sort: '#', prefix: ROWS_PREFIX });
  const rows = useMemo<ResultRow[]>(
    () => answer.rows.map((values, index) => ({ key: String(index + 1), values })),
    [answer.rows],
  );
  return (
    <Stack gap="sm" data-testid="sql-answer" data-source={answer.source}>
      <BoundsReached bounds={answer.bounds} />
      <SourceNotices notices={answer.notices} />
      <AnswerAge
        source={answer.source}
        fetchedAt={answer.fetchedAt}
        elapsedMs={answer.elapsedMs}
        scanned={answer.scanned}
        rows={answer.rows.length}
        queuesAsOf={answer.queuesAsOf}
      />
      {answer.source === 'live' && <PushedDown selector={answer.selector} residual={answer.residual} />}
      {answer.nodes && <LiveNodes nodes={answer.nodes} />}
      <ResultTable
        tableId="sql-rows"
        columns={answer.columns}
        rows={rows}
        list={list}
        fileName={fileName}
        isFetching={isFetching}
        empty={{
          title: 'No rows',
          description:
            answer.bounds.length > 0
              ? 'Nothing matched within the bounds said above.'
              : 'Nothing matched the query in this source.',
        }}
      />
    </Stack>
  );
}
