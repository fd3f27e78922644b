'use client';
// The "Where would it go?" tab: the question, the answer per node, and the graph with the path the message travels
// (addresses, diverts, edges and the receiving queues) highlighted and the rest dimmed.
import { Stack } from '@mantine/core';
import { skipToken, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { DataAge } from '@/ui/stream/data-age.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import type { ProbeMessage } from '../../model/where/where-types.ts';
import { GraphPanel } from '../graph/graph-panel.tsx';
import { WhereAnswerView } from './where-answer.tsx';
import { WhereForm } from './where-form.tsx';

export function WhereTab({ clusterId }: { clusterId: string }) {
  const trpc = useTRPC();
  // The question asked (read-only, so a query): answered again, live, when the routing changes.
  const [asked, setAsked] = useState<ProbeMessage | undefined>(undefined);
  const ask = useQuery({
    ...trpc.routing.where.queryOptions(
      asked ? { clusterId, ...asked, properties: { ...asked.properties }, headers: { ...asked.headers } } : skipToken,
    ),
    ...useLive(['queues', 'config']),
  });
  const answer = ask.data;
  const highlighted = useMemo(() => new Set(answer?.highlighted ?? []), [answer]);
  return (
    <Stack gap="md">
      <PageSection
        title="Where would this message go?"
        description="Evaluated on each node's routing as read now: routing types, diverts (exclusive first) and their filters, queue filters (JMS selector semantics), and what happens when nothing takes it. Nothing is sent."
      >
        <WhereForm pending={asked !== undefined && ask.isFetching} onAsk={setAsked} />
        {ask.isError && <ProblemView error={ask.error} onRetry={() => void ask.refetch()} />}
        {answer && (
          <>
            <DataAge readAt={answer.readAt} refreshedWhen="an address, queue or divert changes" />
            <WhereAnswerView answer={answer} />
          </>
        )}
      </PageSection>
      <GraphPanel clusterId={clusterId} highlighted={answer ? highlighted : undefined} />
    </Stack>
  );
}
