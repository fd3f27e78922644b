'use client';
// The one table of the console. It shows a server-side page (q, sort, page and page size live in the URL via
// useListState), keeps its size while loading so nothing jumps, says why it is empty, shows a failure as its
// problem, lets the viewer choose columns, and wires row menus and selection to the slots.
import {
  Button,
  Checkbox,
  Group,
  Paper,
  ScrollArea,
  Skeleton,
  Stack,
  Table,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { EmptyState } from '../parts/empty-state.tsx';
import { ProblemView } from '../parts/problem-view.tsx';
import type { PanelSlotId } from '../slots/contribution-types.ts';
import type { RowMenuKind } from '../slots/slot-ids.ts';
import { Slot, useContributions } from '../slots/slot.tsx';
import type { Column } from './column.ts';
import { ColumnMenu } from './column-menu.tsx';
import type { ListStateApi } from './list-state.ts';
import { RowMenu } from './row-menu.tsx';
import { SearchBox } from './search-box.tsx';
import { TablePager } from './table-pager.tsx';

type SelectionSlot = Extract<PanelSlotId, 'queues.selection' | 'messages.selection' | 'flow.selection.panels'>;

interface TableQuery<Row> {
  readonly data: { readonly items: readonly Row[]; readonly total: number } | undefined;
  readonly error: unknown;
  readonly isPending: boolean;
  readonly isFetching: boolean;
  readonly refetch: () => unknown;
}

export interface DataTableProps<Row, Filter extends string> {
  /** Stable id: the viewer's column choice is remembered under it. */
  readonly tableId: string;
  readonly label: string;
  readonly columns: readonly Column<Row>[];
  readonly rowKey: (row: Row) => string;
  readonly list: ListStateApi<Filter>;
  readonly query: TableQuery<Row>;
  readonly searchPlaceholder?: string;
  /** The screen's own filter controls, shown beside the search box. */
  readonly filters?: ReactNode;
  readonly empty: { readonly title: string; readonly description?: ReactNode };
  /** `writesOff`: why the cluster takes no writes now (its capability gate); the menu's writes are then disabled. */
  readonly rowMenu?: { readonly kind: RowMenuKind; readonly clusterId?: string; readonly writesOff?: string };
  /** Rows that need an eye: a tinted background (with `data-tone` for tests), e.g. a backlog that grows. */
  readonly rowTone?: (row: Row) => 'warning' | 'danger' | undefined;
  /** Actions about the whole list (an export), beside the column menu. */
  readonly toolbar?: ReactNode;
  /** Extra attributes of a row (data-* for tests and styles). */
  readonly rowAttributes?: (row: Row) => Record<`data-${string}`, string>;
  /** Below the default minimum width, for a list of a few narrow columns (a modal's). */
  readonly minWidth?: number;
  readonly selection?: { readonly slot: SelectionSlot; readonly clusterId: string };
}

function SortButton({ column, sort, onSort }: { column: Column<unknown>; sort: string; onSort: (s: string) => void }) {
  const field = column.sortField ?? column.id;
  const direction = sort === field ? 'asc' : sort === `-${field}` ? 'desc' : undefined;
  const Icon = direction === 'asc' ? IconArrowUp : direction === 'desc' ? IconArrowDown : IconArrowsSort;
  return (
    <UnstyledButton
      onClick={() => onSort(direction === 'asc' ? `-${field}` : field)}
      aria-label={`Sort by ${column.header}${direction === 'asc' ? ', descending' : ''}`}
      fw={600}
      fz="sm"
    >
      <Group gap={4} wrap="nowrap">
        {column.header}
        <Icon size={14} opacity={direction ? 1 : 0.4} aria-hidden />
      </Group>
    </UnstyledButton>
  );
}

export function DataTable<Row, Filter extends string = never>(props: DataTableProps<Row, Filter>) {
  const { columns, list, query, rowKey } = props;
  const [hiddenIds, setHiddenIds] = useLocalStorage<string[]>({
    key: `flotilla.columns.${props.tableId}`,
    defaultValue: columns.filter((column) => column.hiddenByDefault).map((column) => column.id),
  });
  const hidden = new Set(hiddenIds);
  const visible = columns.filter((column) => !hidden.has(column.id));
  const menuItems = useContributions(`${props.rowMenu?.kind ?? 'queue'}.actions`);
  const rowMenuItems = props.rowMenu ? menuItems : [];
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const hasSelection = props.selection !== undefined;
  const hasMenu = rowMenuItems.length > 0;
  const columnCount = visible.length + (hasSelection ? 1 : 0) + (hasMenu ? 1 : 0);
  const { state } = list;
  const rows = query.data?.items ?? [];
  const toggleColumn = (id: string) =>
    setHiddenIds((current) => (current.includes(id) ? current.filter((other) => other !== id) : [...current, id]));
  const toggleRow = (key: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  // Skeleton rows stand in for the page while the first answer is on its way, so the layout does not jump.
  const skeletonRows = Math.min(state.pageSize, 8);
  let body: ReactNode;
  if (query.isPending && !query.data) {
    body = Array.from({ length: skeletonRows }, (_, index) => (
      <Table.Tr key={index} aria-hidden>
        {Array.from({ length: columnCount }, (_, cell) => (
          <Table.Td key={cell}>
            <Skeleton height={14} radius="sm" />
          </Table.Td>
        ))}
      </Table.Tr>
    ));
  } else if (rows.length === 0) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={columnCount}>
          {query.error ? (
            <ProblemView error={query.error} onRetry={() => void query.refetch()} />
          ) : state.q || Object.values(state.filters).some(Boolean) ? (
            // Something is here, the search or a filter hides it: say so, and offer the way back.
            <EmptyState
              title="Nothing matches your filter"
              kind="filtered"
              action={
                <Button variant="light" size="xs" onClick={list.reset}>
                  Clear search and filters
                </Button>
              }
            >
              {`No row matches${state.q ? ` "${state.q}"` : ''} with the filters set.`}
            </EmptyState>
          ) : (
            <EmptyState title={props.empty.title} kind="none">
              {props.empty.description}
            </EmptyState>
          )}
        </Table.Td>
      </Table.Tr>
    );
  } else {
    body = rows.map((row) => {
      const key = rowKey(row);
      const tone = props.rowTone?.(row);
      return (
        <Table.Tr
          key={key}
          {...props.rowAttributes?.(row)}
          data-row-key={key}
          data-tone={tone}
          bg={
            selected.has(key)
              ? 'var(--mantine-primary-color-light)'
              : tone
                ? `var(--mantine-color-${tone === 'danger' ? 'red' : 'yellow'}-light)`
                : undefined
          }
        >
          {hasSelection && (
            <Table.Td w={40}>
              <Checkbox aria-label={`Select ${key}`} checked={selected.has(key)} onChange={() => toggleRow(key)} />
            </Table.Td>
          )}
          {visible.map((column) => (
            <Table.Td key={column.id} data-column={column.id} ta={column.align}>
              {column.cell(row)}
            </Table.Td>
          ))}
          {hasMenu && (
            <Table.Td w={48}>
              <RowMenu
                items={rowMenuItems}
                target={{ clusterId: props.rowMenu?.clusterId, key, row }}
                writesOff={props.rowMenu?.writesOff}
              />
            </Table.Td>
          )}
        </Table.Tr>
      );
    });
  }

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end">
        <SearchBox value={state.q} onChange={list.setQ} placeholder={props.searchPlaceholder ?? 'Search'} />
        <Group gap="xs">
          {props.toolbar}
          <ColumnMenu columns={columns} hidden={hidden} onToggle={toggleColumn} />
        </Group>
      </Group>
      {props.filters && (
        <Group gap="xs" align="flex-end" role="group" aria-label="Filters">
          {props.filters}
        </Group>
      )}
      {query.error !== null && query.error !== undefined && rows.length > 0 && (
        <ProblemView error={query.error} onRetry={() => void query.refetch()} />
      )}
      <Paper withBorder radius="md">
        <ScrollArea type="auto">
          <Table
            aria-label={props.label}
            aria-busy={query.isFetching}
            data-testid={`table-${props.tableId}`}
            highlightOnHover
            verticalSpacing="xs"
            miw={props.minWidth ?? 720}
          >
            <Table.Thead>
              <Table.Tr>
                {hasSelection && <Table.Th w={40} aria-label="Selection" />}
                {visible.map((column) => {
                  const field = column.sortField;
                  const ariaSort =
                    field === undefined
                      ? undefined
                      : state.sort === field
                        ? 'ascending'
                        : state.sort === `-${field}`
                          ? 'descending'
                          : 'none';
                  return (
                    <Table.Th key={column.id} w={column.width} aria-sort={ariaSort} ta={column.align}>
                      {field ? (
                        <SortButton column={column as Column<unknown>} sort={state.sort} onSort={list.setSort} />
                      ) : (
                        <Text fw={600} fz="sm">
                          {column.header}
                        </Text>
                      )}
                    </Table.Th>
                  );
                })}
                {hasMenu && <Table.Th w={48} aria-label="Actions" />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>{body}</Table.Tbody>
          </Table>
        </ScrollArea>
      </Paper>
      <TablePager list={list} total={query.data?.total} />
      {props.selection && selected.size > 0 && (
        <Slot id={props.selection.slot} props={{ clusterId: props.selection.clusterId, keys: [...selected] }} />
      )}
    </Stack>
  );
}
