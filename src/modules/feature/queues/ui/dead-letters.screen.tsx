'use client';
// Messaging → Dead letters: every dead-letter and expiry queue of the clusters the viewer may read (marked from the
// brokers' own address settings, never from names), with what the brokers hold now: depth, oldest message and the
// original addresses its messages died on. Rows of one cluster are selected and redriven together: a dry run first,
// node by node, then the hold to confirm, and over the bulk cap the override (the queue operations' one dialog).
// Live on the `queues` topic; the fleet's page is not scoped to one cluster's stream, so it also re-counts every 30 s.
import { Alert, Anchor, Badge, Button, Checkbox, Group, Select, Stack, Text, Tooltip } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTRPC, type RouterInputs, type RouterOutputs } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { EntityLink } from '@/ui/slots/entity-link.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { listInput, useListState } from '@/ui/table/list-state.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import {
  CapabilityNote,
  GateIcon,
  GateTooltip,
  useCapabilityGate,
  type CapabilityGate,
} from '@/modules/platform/clusters/ui.ts';
import { OperationDialog, formatCount, type OperationSpec } from '@/modules/platform/commands/ui.ts';

type Answer = RouterOutputs['queues']['deadLetters'];
type Row = Answer['items'][number];
type Input = RouterInputs['queues']['deadLetters'];

/** While the stream is connected, still re-count this often (queue signals are per cluster, this page is not). */
const RECOUNT_MS = 30_000;
const EVERY = '*';
const SHOWN_ADDRESSES = 3;

const rowKey = (row: Row) => `${row.clusterId}\u0000${row.routingType}\u0000${row.address}\u0000${row.queueName}`;
const messages = (count: number) => `${formatCount(count)} ${count === 1 ? 'message' : 'messages'}`;

function OriginalAddresses({ row }: { row: Row }) {
  if (row.originalAddresses.length === 0)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  const more = row.originalAddressCount - Math.min(SHOWN_ADDRESSES, row.originalAddresses.length);
  return (
    <Group gap={4} data-testid="original-addresses">
      {row.originalAddresses.slice(0, SHOWN_ADDRESSES).map((original) => (
        <Badge key={original.address} size="sm" variant="light" color="gray" tt="none">
          {original.address} · {formatCount(original.count)}
        </Badge>
      ))}
      {more > 0 && (
        <Text size="xs" c="dimmed">
          +{more} more
        </Text>
      )}
    </Group>
  );
}

function Depth({ row }: { row: Row }) {
  const live = row.liveCount;
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Text size="sm" ff="monospace" c={live === null ? 'dimmed' : undefined}>
        {formatCount(live ?? row.messageCount)}
      </Text>
      {(live === null || !row.complete) && (
        <Tooltip
          label={
            live === null
              ? 'No node answered: the number is the one the scrape last read'
              : 'Some node did not answer: counted over the nodes that did'
          }
        >
          <Badge size="xs" color="orange" variant="light">
            {live === null ? 'scraped' : 'partial'}
          </Badge>
        </Tooltip>
      )}
    </Group>
  );
}

function columnsFor(selected: ReadonlyMap<string, Row>, toggle: (row: Row) => void): readonly Column<Row>[] {
  return [
    {
      id: 'queue',
      header: 'Queue',
      sortField: 'queueName',
      cell: (row) => (
        <Group gap="xs" wrap="nowrap">
          <Checkbox
            aria-label={`Select ${row.queueName} of ${row.clusterName}`}
            checked={selected.has(rowKey(row))}
            onChange={() => toggle(row)}
          />
          <EntityLink kind="queue" target={{ clusterId: row.clusterId, key: row.queueName, row }}>
            {row.queueName}
          </EntityLink>
        </Group>
      ),
    },
    {
      id: 'cluster',
      header: 'Cluster',
      cell: (row) => (
        <Anchor component={Link} href={`/clusters/${row.clusterId}`} size="sm">
          {row.clusterName}
        </Anchor>
      ),
    },
    {
      id: 'kind',
      header: 'Kind',
      width: 110,
      cell: (row) => (
        <Badge size="sm" variant="outline" color={row.kind === 'expiry' ? 'yellow' : 'red'}>
          {row.kind ?? 'dead-letter'}
        </Badge>
      ),
    },
    { id: 'address', header: 'Address', sortField: 'address', hiddenByDefault: true, cell: (row) => row.address },
    {
      id: 'depth',
      header: 'Messages',
      sortField: 'messageCount',
      align: 'right',
      width: 130,
      cell: (row) => <Depth row={row} />,
    },
    { id: 'oldest', header: 'Oldest', width: 140, cell: (row) => <TimeAgo iso={row.oldestMessageAt} /> },
    { id: 'origins', header: 'Died on', cell: (row) => <OriginalAddresses row={row} /> },
    {
      id: 'scraped',
      header: 'Scraped',
      sortField: 'scrapedAt',
      hiddenByDefault: true,
      width: 130,
      cell: (row) => <TimeAgo iso={row.scrapedAt} />,
    },
  ];
}

/** The selected queues of one cluster, each whole or one original address, as one redrive command. */
function RedriveDialog({ rows, gate, onClose }: { rows: readonly Row[]; gate: CapabilityGate; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const redrive = useMutation(trpc.queues.redriveDeadLetters.mutationOptions());
  const [scopes, setScopes] = useState<Record<string, string>>({});
  const [first] = rows;
  if (!first) return null;
  const items = rows.map((row) => {
    const scope = scopes[rowKey(row)] ?? EVERY;
    return { queueName: row.queueName, ...(scope === EVERY ? {} : { originalAddress: scope }) };
  });
  const spec: OperationSpec = {
    title: `Redrive ${rows.length === 1 ? first.queueName : `${rows.length} dead-letter queues`} of ${first.clusterName}`,
    description:
      'Sends the messages back to the address each one died on (the broker reads it from the message): every message of a queue, or only those of one original address.',
    notice: <CapabilityNote gate={gate} />,
    form: rows.map((row) => (
      <Select
        key={rowKey(row)}
        label={row.queueName}
        data={[
          { value: EVERY, label: 'Every message' },
          ...row.originalAddresses.map((original) => ({
            value: original.address,
            label: `Only those that died on ${original.address} (${formatCount(original.count)})`,
          })),
        ]}
        value={scopes[rowKey(row)] ?? EVERY}
        onChange={(value) => setScopes((current) => ({ ...current, [rowKey(row)]: value ?? EVERY }))}
        allowDeselect={false}
      />
    )),
    parameters: JSON.stringify(items),
    ready: true,
    hold: { action: 'Redrive', noun: ['message', 'messages'] },
    summary: (preview) =>
      `${messages(preview.affectedCount)} of ${items.length === 1 ? 'this queue' : `${items.length} queues`} would go back to their original addresses.`,
    run: async (flags) => {
      const result = await redrive.mutateAsync({ clusterId: first.clusterId, items, ...flags });
      if (!flags.dryRun) await queryClient.invalidateQueries(trpc.queues.pathFilter());
      return result;
    },
    auditTarget: items.length === 1 ? first.queueName : `${items.length} dead-letter queue items`,
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}

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
  const clusters = useQuery(trpc.clusters.list.queryOptions({ sort: 'name', page: 1, pageSize: 500 }));
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
            <Select
              aria-label="Cluster"
              placeholder="Every cluster"
              data={(clusters.data?.items ?? []).map((item) => ({ value: item.id, label: item.name }))}
              value={cluster ?? null}
              onChange={(value) => list.setFilter('cluster', value ?? undefined)}
              clearable
              searchable
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
