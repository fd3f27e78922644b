'use client';
// The expectation of one request address: what is declared now (its version, who changed it and when), its edit and
// removal (each a dry run first), and every version it had, removals included.
import { Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { PageSection } from '@/ui/parts/page-section.tsx';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useLocalListState } from '@/ui/table/list-state.ts';
import { localQuery } from '@/ui/table/local-query.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { ExpectationForm } from './expectation-form.tsx';
import { RemoveExpectationDialog } from './remove-expectation.tsx';
import { ms, type FlowSummary } from './rr-format.ts';

type Revision = RouterOutputs['rr']['expectations']['history']['items'][number];

const HISTORY_COLUMNS: readonly Column<Revision>[] = [
  { id: 'version', header: 'Version', sortField: 'version', align: 'right', width: 90, cell: (row) => row.version },
  {
    id: 'change',
    header: 'Change',
    cell: (row) =>
      row.removed ? (
        <Badge color="gray" variant="light">
          removed
        </Badge>
      ) : (
        `${ms(row.expectedLatencyMs)} expected, deadline ${ms(row.deadlineMs)}${row.replyAddress ? `, replies to ${row.replyAddress}` : ''}`
      ),
  },
  { id: 'actor', header: 'By', cell: (row) => row.actor ?? '—' },
  { id: 'at', header: 'When', sortField: 'at', cell: (row) => <TimeAgo iso={row.at} /> },
];

function ExpectationHistory({ clusterId, address }: { clusterId: string; address: string }) {
  const trpc = useTRPC();
  const list = useLocalListState({ sort: '-version', pageSize: 10 });
  const history = useQuery(trpc.rr.expectations.history.queryOptions({ clusterId, address }));
  const query = localQuery(
    history.data?.items,
    list,
    {
      text: (row) => [row.version, row.actor ?? '', row.replyAddress ?? '', row.removed ? 'removed' : ''].join(' '),
      sortValue: (row, field) => (field === 'at' ? row.at : row.version),
    },
    history,
  );
  return (
    <DataTable
      tableId="rr-expectation-history"
      label="Expectation history"
      columns={HISTORY_COLUMNS}
      rowKey={(row) => String(row.version)}
      list={list}
      query={query}
      minWidth={560}
      searchPlaceholder="Search versions"
      empty={{ title: 'Never declared', description: 'This address has had no expectation yet.' }}
    />
  );
}

export function ExpectationPanel({ clusterId, summary }: { clusterId: string; summary: FlowSummary }) {
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [showHistory, setShowHistory] = useState(false);
  const { expectation, address } = summary;
  return (
    <PageSection
      title="Expectation"
      description="The latency this address's replies should keep, and the deadline past which a request without a reply is settled."
    >
      <Group justify="space-between" align="flex-start" data-testid="expectation">
        {expectation ? (
          <Stack gap={2}>
            <Text size="sm" data-testid="expectation-values">
              Expected {ms(expectation.expectedLatencyMs)}, deadline {ms(expectation.deadlineMs)}
              {expectation.replyAddress ? `, replies to ${expectation.replyAddress}` : ', no reply address declared'}
            </Text>
            <Text size="xs" c="dimmed" data-testid="expectation-version">
              Version {expectation.version}, by {expectation.updatedBy ?? 'unknown'},{' '}
              <TimeAgo iso={expectation.updatedAt} inline />
            </Text>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed" data-testid="expectation-values">
            None declared: requests wait their own expiration, else rr.default-deadline.
          </Text>
        )}
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={() => setEditing(true)}>
            {expectation ? 'Edit…' : 'Declare…'}
          </Button>
          {expectation && (
            <Button size="xs" variant="subtle" color="red" onClick={() => setRemoving(true)}>
              Remove…
            </Button>
          )}
          <Button size="xs" variant="subtle" onClick={() => setShowHistory((shown) => !shown)}>
            {showHistory ? 'Hide history' : 'History'}
          </Button>
        </Group>
      </Group>
      {showHistory && <ExpectationHistory clusterId={clusterId} address={address} />}
      {editing && (
        <Modal opened onClose={() => setEditing(false)} title={`Expectation of ${address}`} size="auto">
          <ExpectationForm
            clusterId={clusterId}
            address={address}
            initial={expectation ?? undefined}
            onClose={() => setEditing(false)}
          />
        </Modal>
      )}
      {removing && (
        <RemoveExpectationDialog clusterId={clusterId} address={address} onClose={() => setRemoving(false)} />
      )}
    </PageSection>
  );
}
