'use client';
// One stream connection per layout (the installation scope, or the cluster of a cluster layout: stream-scope.ts)
// carrying every enabled module's topics. Signals invalidate exactly the queries that declared their topic (see live-query.ts),
// at most once a second per topic (signal-coalescer.ts).
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { isInvalidatedBy } from './live-query.ts';
import { SignalCoalescer } from './signal-coalescer.ts';
import { StreamConnection, type StreamStatus } from './stream-connection.ts';
import { StreamContext, type StreamContextValue } from './stream-context.ts';

export function StreamProvider({
  clusterId,
  topics,
  children,
}: {
  clusterId: string;
  topics: readonly string[];
  children: ReactNode;
}) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<StreamStatus>({ state: 'connecting', failures: 0 });
  const topicList = topics.join(',');

  useEffect(() => {
    if (topicList === '') return undefined;
    const coalescer = new SignalCoalescer((signal) => {
      void queryClient.invalidateQueries({ predicate: (query) => isInvalidatedBy(query, signal) });
    });
    const connection = new StreamConnection({
      clusterId,
      topics: topicList.split(','),
      onStatus: setStatus,
      onSignal: (signal) => coalescer.offer(signal),
      // Whatever changed while we were away went unannounced: refetch everything on screen.
      onResumed: () => void queryClient.invalidateQueries(),
    });
    connection.start();
    return () => {
      connection.close();
      coalescer.close();
    };
  }, [clusterId, topicList, queryClient]);

  const value = useMemo<StreamContextValue>(() => ({ clusterId, topics, status }), [clusterId, topics, status]);
  return <StreamContext value={value}>{children}</StreamContext>;
}
