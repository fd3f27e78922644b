'use client';
// Desired against live, per node: every declared item on every live node, IN_SYNC, DRIFTED (with the fields that
// differ, declared against live), MISSING or UNVERIFIABLE, and since when it was evaluated. Search, sort, page and the
// state filter are in the URL under `d.`. Below, which bridge fields the broker reports back at all.
import { Badge, Group, Select, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { DataTable } from '@/ui/table/data-table.tsx';
import type { Column } from '@/ui/table/column.ts';
import { useListState } from '@/ui/table/list-state.ts';
import { localQuery } from '@/ui/table/local-query.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { DRIFT_STATES, STATE_COLORS, valueText, type DriftRow, type DriftState } from './config-format.ts';

const rowKey = (row: DriftRow) => `${row.nodeId}/${row.kind}/${row.key}`;
const stateOf = (text: string | undefined): DriftState | undefined => DRIFT_STATES.find((state) => state === text);

const COLUMNS: readonly Column<DriftRow>[] = [
  {
    id: 'item',
    header: 'Declared item',
    sortField: 'item',
    cell: (row) => (
      <Text size="sm" ff="monospace">
        {row.kind} {row.key}
      </Text>
    ),
  },
  { id: 'node', header: 'Node', sortField: 'node', cell: (row) => row.nodeName, width: 160 },
  {
    id: 'state',
    header: 'State',
    sortField: 'state',
    width: 140,
    cell: (row) => (
      <Badge color={STATE_COLORS[row.state]} variant="light" data-testid="drift-state">
        {row.state}
      </Badge>
    ),
  },
  {
    id: 'fields',
    header: 'Differs (declared → live)',
    cell: (row) =>
      row.fields.length === 0 ? (
        <Text size="sm" c="dimmed">
          —
        </Text>
      ) : (
        <Stack gap={2}>
          {row.fields.map((field) => (
            <Text key={field.field} size="sm" ff="monospace" data-testid="drift-field">
              {field.field}: {valueText(field.declared)} → {valueText(field.live)}
            </Text>
          ))}
        </Stack>
      ),
  },
  { id: 'revision', header: 'Revision', sortField: 'revision', align: 'right', width: 90, cell: (row) => row.revision },
  {
    id: 'evaluatedAt',
    header: 'Evaluated',
    sortField: 'evaluatedAt',
    width: 130,
    cell: (row) => <TimeAgo iso={row.evaluatedAt} />,
  },
];

const STATE_RANK: Record<DriftState, number> = { MISSING: 0, DRIFTED: 1, UNVERIFIABLE: 2, IN_SYNC: 3 };

function sortValue(row: DriftRow, field: string): string | number {
  if (field === 'node') return row.nodeName;
  if (field === 'state') return STATE_RANK[row.state];
  if (field === 'revision') return row.revision;
  if (field === 'evaluatedAt') return row.evaluatedAt;
  return `${row.kind} ${row.key}`;
}

export function DriftTable({
  rows,
  source,
  bridgeFieldsVerified,
}: {
  rows: readonly DriftRow[] | undefined;
  source: { isPending: boolean; isFetching: boolean; error: unknown; refetch: () => unknown };
  bridgeFieldsVerified: readonly string[];
}) {
  const list = useListState<'state'>({ sort: 'state', filters: ['state'], prefix: 'd' });
  const state = stateOf(list.state.filters.state);
  const shown = useMemo(() => (rows ?? []).filter((row) => !state || row.state === state), [rows, state]);
  const query = localQuery(
    rows ? shown : undefined,
    list,
    { text: (row) => `${row.kind} ${row.key} ${row.nodeName} ${row.state}`, sortValue },
    source,
  );
  return (
    <Stack gap="xs">
      <DataTable
        tableId="config-drift"
        label="Declared against live, per node"
        columns={COLUMNS}
        rowKey={rowKey}
        rowAttributes={(row) => ({ 'data-key': row.key, 'data-kind': row.kind, 'data-state': row.state })}
        rowTone={(row) => (row.state === 'MISSING' ? 'danger' : row.state === 'DRIFTED' ? 'warning' : undefined)}
        list={list}
        query={query}
        searchPlaceholder="Search item or node"
        filters={
          <Select
            label="State"
            placeholder="every state"
            clearable
            w={200}
            data={[...DRIFT_STATES]}
            value={state ?? null}
            onChange={(value) => list.setFilter('state', value ?? undefined)}
          />
        }
        empty={{
          title: state ? `No ${state} item` : 'Nothing declared is evaluated yet',
          description:
            'Drift is evaluated on a schedule and after every apply, for each declared item on each live node. Declare items and apply them first.',
        }}
      />
      <Group gap={6}>
        <Text size="xs" c="dimmed" data-testid="bridge-fields-note">
          Bridges: the broker reports back{' '}
          {bridgeFieldsVerified.length > 0 ? bridgeFieldsVerified.join(', ') : 'no field'}, so only these are verified;
          every other bridge field (the credentials, window sizes) is applied, never verified.
        </Text>
      </Group>
    </Stack>
  );
}
