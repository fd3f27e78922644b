'use client';
// What a broker command answered, node by node: before (a dry run: what each node would do, its estimate) and
// after (what each node did, or why it failed with the advice and the configuration that fixes it). Every broker
// command (platform/commands' sequence) answers this one shape; the modules that run them (queues, messages,
// resources) show it through ui.ts.
import { Badge, Code, Stack, Text } from '@mantine/core';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useLocalListState } from '@/ui/table/list-state.ts';
import { localQuery } from '@/ui/table/local-query.ts';

/** The answer of every broker command (commandResultSchema), whichever module's procedure ran it. */
export type CommandResult = RouterOutputs['queues']['purge'];
type NodeResult = CommandResult['nodes'][number];

const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });

export const formatCount = (value: number) => integer.format(value);

const OUTCOME_COLOURS: Record<NodeResult['outcome'], string> = {
  WOULD_APPLY: 'blue',
  APPLIED: 'teal',
  FAILED: 'red',
  NOT_PRESENT: 'gray',
};

const OUTCOME_WORDS: Record<NodeResult['outcome'], string> = {
  WOULD_APPLY: 'would apply',
  APPLIED: 'applied',
  FAILED: 'failed',
  NOT_PRESENT: 'not present',
};

function countText(value: number | null) {
  return (
    <Text size="sm" ff="monospace" c={value === null ? 'dimmed' : undefined}>
      {value === null ? '—' : formatCount(value)}
    </Text>
  );
}

function columnsFor(after: boolean): readonly Column<NodeResult>[] {
  return [
    {
      id: 'node',
      header: 'Node',
      sortField: 'node',
      cell: (node) => (
        <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
          {node.nodeName}
        </Text>
      ),
    },
    {
      id: 'outcome',
      header: 'Outcome',
      width: 130,
      cell: (node) => (
        <Badge size="sm" variant="light" color={OUTCOME_COLOURS[node.outcome]}>
          {OUTCOME_WORDS[node.outcome]}
        </Badge>
      ),
    },
    {
      id: 'estimate',
      header: after ? 'Expected' : 'Estimate',
      align: 'right',
      width: 110,
      sortField: 'estimate',
      cell: (node) => countText(node.estimate),
    },
    ...(after
      ? [
          {
            id: 'count',
            header: 'Done',
            align: 'right',
            width: 100,
            sortField: 'count',
            cell: (node: NodeResult) => countText(node.count),
          } satisfies Column<NodeResult>,
        ]
      : []),
    {
      id: 'failure',
      header: 'Advice',
      cell: (node) =>
        node.failure ? (
          <Stack gap={4} data-testid="node-failure">
            <Text size="sm" c="red">
              {node.failure.kind}: {node.failure.message}
            </Text>
            <Text size="sm">{node.failure.advice}</Text>
            {node.failure.configSnippet && (
              <Code block fz="xs">
                {node.failure.configSnippet}
              </Code>
            )}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {node.outcome === 'NOT_PRESENT'
              ? 'Nothing to do on this node (what the operation acts on is absent, or already as asked): skipped'
              : '—'}
          </Text>
        ),
    },
  ];
}

const PREVIEW_COLUMNS = columnsFor(false);
const RESULT_COLUMNS = columnsFor(true);

/** The per-node table of a command's answer: its preview (a dry run) or its outcome. */
export function CommandNodes({ nodes, after }: { nodes: readonly NodeResult[]; after: boolean }) {
  const list = useLocalListState({ sort: 'node', pageSize: 10 });
  const query = localQuery(nodes, list, {
    text: (node) => [node.nodeName, node.logicalNode, node.outcome].join(' '),
    sortValue: (node, field) =>
      field === 'estimate' ? (node.estimate ?? -1) : field === 'count' ? (node.count ?? -1) : node.nodeName,
  });
  return (
    <div data-testid={after ? 'command-outcome' : 'command-preview'}>
      <DataTable
        tableId={after ? 'command-outcome' : 'command-preview'}
        label={after ? 'Outcome per node' : 'Preview per node'}
        columns={after ? RESULT_COLUMNS : PREVIEW_COLUMNS}
        rowKey={(node) => node.nodeId}
        rowAttributes={(node) => ({ 'data-node': node.nodeName, 'data-outcome': node.outcome })}
        list={list}
        query={query}
        searchPlaceholder="Search nodes"
        empty={{ title: 'No node to act on', description: 'The cluster has no serving node right now.' }}
        minWidth={560}
      />
    </div>
  );
}
