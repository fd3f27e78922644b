'use client';
// Messaging → Dead letters: every dead-letter and expiry queue of the clusters the viewer may read (marked from the
// brokers' own address settings, never from names), with what the brokers hold now: depth, oldest message and the
// original addresses its messages died on. Rows of one cluster are selected and redriven together: a dry run first,
// node by node, then the hold to confirm, and over the bulk cap the override (the queue operations' one dialog).
// Live on the `queues` topic; the fleet's page is not scoped to one cluster's stream, so it also re-counts every 30 s.
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC, type RouterInputs } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { listInput, useListState } from '@/ui/table/list-state.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { ClusterPicker, GateIcon, GateTooltip, useCapabilityGate } from '@/modules/platform/clusters/ui.ts';
import {
  columnsFor,
  rowKey,
  type DeadLetterAnswer as Answer,
  type DeadLetterRow as Row,
} from './dead-letter-columns.tsx';
import { RedriveDialog } from './redrive-dialog.tsx';

type Input = RouterInputs['queues']['deadLetters'];

/** While the stream is connected, still re-count this often (queue signals are per cluster, this page is not). */
const RECOUNT_MS = 30_000;

function SettingsWarnings({ answer }: { answer: Answer | undefined }) {
  if (!answer) return null;
  return (
    <>
      {answer.unreadClusters.length > 0 && (
        <Alert color="yellow" variant="light" title="Dead-letter settings not read" data-testid="unread-settings">
          <Stack gap={4}>
            <Text size="sm">
              Dead-letter and expiry queues are known from the brokers’ own address settings. For these clusters the
              last read failed or has not happened, so their queues may be missing here (nothing is guessed from names):
            </Text>
            {answer.unreadClusters.map((cluster) => (
              <Text key={cluster.clusterId} size="sm">
                <strong>{cluster.clusterName}</strong>: {cluster.deadLetterSettings.error ?? 'not read'}
                {cluster.deadLetterSettings.readAt && (
                  <>
                    {' '}
                    (marks as read <TimeAgo iso={cluster.deadLetterSettings.readAt} inline />)
                  </>
                )}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      {answer.nodeFailures.length > 0 && (
        <Alert color="orange" variant="light" title="Not every node answered" data-testid="node-failures">
          {answer.nodeFailures.map((failure) => (
            <Text key={`${failure.clusterId}:${failure.nodeName}`} size="sm">
              {failure.clusterName} · {failure.nodeName}: {failure.message}
            </Text>
          ))}
        </Alert>
      )}
    </>
  );
}

export function DeadLettersScreen() {
  const trpc = useTRPC();
  const list = useListState<'cluster'>({ sort: '-messageCount', filters: ['cluster'] });
  const live = useLive(['queues']);
  const cluster = list.state.filters.cluster;
  const input: Input = { ...listInput(list.state), ...(cluster ? { cluster } : {}) };
  const query = useQuery({
    ...trpc.queues.deadLetters.queryOptions(input),
    ...live,
    refetchInterval: live.refetchInterval === false ? RECOUNT_MS : live.refetchInterval,
    placeholderData: keepPreviousData,
  });
  const [selected, setSelected] = useState<ReadonlyMap<string, Row>>(new Map());
  const [redriving, setRedriving] = useState<readonly Row[] | undefined>(undefined);
  const toggle = (row: Row) =>
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(rowKey(row))) next.delete(rowKey(row));
      else next.set(rowKey(row), row);
      return next;
    });
  const chosen = [...selected.values()];
  const clustersChosen = new Set(chosen.map((row) => row.clusterId)).size;
  // The writes of the selection's cluster (one at a time) gate the redrive.
  const gate = useCapabilityGate(clustersChosen === 1 ? chosen[0]?.clusterId : undefined);
  return (
    <>
      <PageHeader
        title="Dead letters"
        description="Every dead-letter and expiry queue of your clusters, as the brokers’ address settings name them, with what the brokers hold now. Select queues of one cluster to send their messages back where they died."
        actions={
          query.data && (
            <Text size="sm" c="dimmed" data-testid="data-age">
              Brokers asked <TimeAgo iso={query.data.fetchedAt} inline />
            </Text>
          )
        }
      />
      <Stack gap="sm">
        <SettingsWarnings answer={query.data} />
        <DataTable
          tableId="dead-letters"
          label="Dead-letter queues"
          columns={columnsFor(selected, toggle)}
          rowKey={rowKey}
          rowAttributes={(row) => ({ 'data-cluster': row.clusterName, 'data-queue': row.queueName })}
          list={list}
          query={query}
          searchPlaceholder="Search queue or address"
          filters={
            <ClusterPicker
              everyCluster
              value={cluster}
              onChange={(picked) => list.setFilter('cluster', picked)}
              w={240}
            />
          }
          toolbar={
            <Group gap="xs">
              {clustersChosen > 1 && (
                <Text size="xs" c="orange">
                  Redrive works on one cluster at a time
                </Text>
              )}
              {chosen.length > 0 && (
                <Button size="xs" variant="default" onClick={() => setSelected(new Map())}>
                  Clear selection
                </Button>
              )}
              <GateTooltip gate={gate}>
                <Button
                  size="xs"
                  disabled={chosen.length === 0 || clustersChosen > 1 || gate.disabled}
                  onClick={() => setRedriving(chosen)}
                  rightSection={<GateIcon gate={gate} />}
                  data-testid="redrive"
                >
                  Redrive{chosen.length > 0 ? ` ${chosen.length} selected` : ''}
                </Button>
              </GateTooltip>
            </Group>
          }
          empty={{
            title: 'No dead-letter queues',
            description:
              'No queue of your clusters is on a dead-letter or expiry address of its brokers’ address settings (they are read after each full sweep).',
          }}
        />
      </Stack>
      {redriving && (
        <RedriveDialog
          rows={redriving}
          gate={gate}
          onClose={() => {
            setRedriving(undefined);
            setSelected(new Map());
          }}
        />
      )}
    </>
  );
}
