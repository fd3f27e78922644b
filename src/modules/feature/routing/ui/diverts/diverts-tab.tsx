'use client';
// The routing screen's Diverts tab: the cluster's diverts merged across its nodes, each with the nodes that have it
// and those lacking it (a divert on some nodes only routes by where a producer connects: marked), live on the
// `queues` signal with the age of the read. "Create divert" and the row menu's Remove open the operation dialogs;
// Remove is a link (`?operate=remove-divert&divert=`), so the graph's facts can offer it too.
import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { IconPlus } from '@tabler/icons-react';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useMemo, useState } from 'react';
import { GateIcon, GateTooltip, useCapabilityGate, writesOffOf } from '@/modules/platform/clusters/ui.ts';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { DataAge } from '@/ui/stream/data-age.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { listInput, useListState } from '@/ui/table/list-state.ts';
import { CreateDivertDialog } from './create-divert-dialog.tsx';
import { REMOVE_OPERATION } from './divert-paths.ts';
import { RemoveDivertDialog } from './remove-divert-dialog.tsx';

type DivertList = RouterOutputs['routing']['diverts']['list'];
type DivertRow = DivertList['items'][number];
interface NodeRef {
  readonly nodeId: string;
  readonly nodeName: string;
}

/** One badge per node: has it, lacks it (red), or could not be read (grey). */
function Presence({ row, unread }: { row: DivertRow; unread: readonly NodeRef[] }) {
  const marks = [
    ...row.presentOn.map((node) => ({ node, state: 'present', colour: 'teal', title: 'has it' })),
    ...row.missingOn.map((node) => ({ node, state: 'missing', colour: 'red', title: 'lacks it' })),
    ...unread.map((node) => ({ node, state: 'unread', colour: 'gray', title: 'not read' })),
  ].sort((a, b) => a.node.nodeName.localeCompare(b.node.nodeName));
  return (
    <Group gap={4} wrap="wrap">
      {marks.map(({ node, state, colour, title }) => (
        <Badge
          key={node.nodeId}
          size="sm"
          // Node names are case-sensitive: shown as they are, not upper-cased.
          tt="none"
          variant={state === 'present' ? 'light' : 'filled'}
          color={colour}
          title={`${node.nodeName} ${title}`}
          data-node={node.nodeName}
          data-presence={state}
        >
          {state === 'missing' ? `${node.nodeName}: missing` : node.nodeName}
        </Badge>
      ))}
    </Group>
  );
}

const differs = (row: DivertRow, field: string) =>
  row.differs.includes(field) ? (
    <Text span size="xs" c="orange" title="Differs between the nodes that have it">
      {' '}
      (differs)
    </Text>
  ) : null;

function divertColumns(unread: readonly NodeRef[]): Column<DivertRow>[] {
  return [
    { id: 'name', header: 'Name', sortField: 'name', cell: (row) => row.name },
    {
      id: 'address',
      header: 'Source address',
      sortField: 'address',
      cell: (row) => (
        <>
          {row.address}
          {differs(row, 'address')}
        </>
      ),
    },
    {
      id: 'forwardingAddress',
      header: 'Forwarding address',
      sortField: 'forwardingAddress',
      cell: (row) => (
        <>
          {row.forwardingAddress}
          {differs(row, 'forwardingAddress')}
        </>
      ),
    },
    {
      id: 'exclusive',
      header: 'Exclusive',
      cell: (row) => (
        <>
          {row.exclusive ? 'exclusive' : 'copy'}
          {differs(row, 'exclusive')}
        </>
      ),
    },
    {
      id: 'filter',
      header: 'Filter',
      cell: (row) => (
        <>
          {row.filter ?? (
            <Text span size="sm" c="dimmed">
              every message
            </Text>
          )}
          {differs(row, 'filter')}
        </>
      ),
    },
    {
      id: 'routingType',
      header: 'Routing type',
      cell: (row) => (
        <>
          {row.routingType.toLowerCase()}
          {differs(row, 'routingType')}
        </>
      ),
    },
    {
      id: 'transformer',
      header: 'Transformer',
      hiddenByDefault: true,
      cell: (row) => row.transformerClassName ?? '—',
    },
    {
      id: 'presence',
      header: 'Nodes',
      sortField: 'presence',
      cell: (row) => <Presence row={row} unread={unread} />,
    },
  ];
}

/** `?operate=remove-divert&divert=<name>`: the remove dialog open for that divert, and a way to close it. */
function useRemoveParam(): [string | null, () => void] {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const divert = params.get('operate') === REMOVE_OPERATION ? params.get('divert') : null;
  const close = () => {
    const query = new URLSearchParams(params.toString());
    query.delete('operate');
    query.delete('divert');
    const search = query.toString();
    router.replace(search ? `${pathname}?${search}` : pathname, { scroll: false });
  };
  return [divert, close];
}

export function DivertsTab({ clusterId }: { clusterId: string }) {
  const trpc = useTRPC();
  const gate = useCapabilityGate(clusterId);
  const list = useListState({ sort: 'name', prefix: 'diverts' });
  const live = useLive(['queues']);
  const query = useQuery({
    ...trpc.routing.diverts.list.queryOptions({ clusterId, ...listInput(list.state) }),
    ...live,
    placeholderData: keepPreviousData,
  });
  const [creating, setCreating] = useState(false);
  const [removing, closeRemove] = useRemoveParam();
  const failures = query.data?.failures;
  const columns = useMemo(() => divertColumns(failures ?? []), [failures]);
  const lacking = query.data?.items.filter((row) => row.missingOn.length > 0).length ?? 0;
  return (
    <Stack gap="sm" data-testid="diverts-tab">
      <Group justify="space-between" align="flex-end">
        <DataAge readAt={query.data?.readAt} refreshedWhen="an address, queue or divert changes" />
        <GateTooltip gate={gate}>
          <Button
            size="xs"
            leftSection={<IconPlus size={14} />}
            rightSection={<GateIcon gate={gate} />}
            disabled={gate.disabled}
            onClick={() => setCreating(true)}
          >
            Create divert
          </Button>
        </GateTooltip>
      </Group>
      {failures && failures.length > 0 && (
        <Alert color="orange" variant="light" title="Some nodes could not be read" data-testid="diverts-unread">
          {failures.map((failure) => `${failure.nodeName}: ${failure.message}`).join('; ')}. Their diverts are unknown,
          not missing.
        </Alert>
      )}
      {lacking > 0 && (
        <Text size="sm" c="red" data-testid="diverts-lacking">
          {lacking === 1 ? 'A divert on this page is' : `${String(lacking)} diverts on this page are`} missing on some
          nodes: a message is diverted or not depending on the node its producer is connected to.
        </Text>
      )}
      <DataTable
        tableId="routing-diverts"
        label="Diverts"
        columns={columns}
        rowKey={(row) => row.name}
        list={list}
        query={query}
        searchPlaceholder="Search name, address or filter"
        empty={{
          title: 'No diverts',
          description: 'No node of the cluster has a divert. Create one to copy or reroute an address’s messages.',
        }}
        rowTone={(row) => (row.missingOn.length > 0 ? 'danger' : row.differs.length > 0 ? 'warning' : undefined)}
        rowAttributes={(row) => ({ 'data-missing-on': row.missingOn.map((node) => node.nodeName).join(',') })}
        rowMenu={{ kind: 'divert', clusterId, writesOff: writesOffOf(gate) }}
      />
      {creating && !gate.disabled && (
        <CreateDivertDialog clusterId={clusterId} gate={gate} onClose={() => setCreating(false)} />
      )}
      {removing && !gate.disabled && (
        <RemoveDivertDialog clusterId={clusterId} divert={removing} gate={gate} onClose={closeRemove} />
      )}
    </Stack>
  );
}
