'use client';
// Each resource list's filters, kept in the URL with q, sort and page: text boxes for names and addresses (links
// from other screens arrive with them filled in), choices for the rest, and the node the rows came from.
import { Select } from '@mantine/core';
import type { ListStateApi } from '@/ui/table/list-state.ts';
import { SearchBox } from '@/ui/table/search-box.tsx';

export interface FilterField<Filter extends string> {
  readonly filter: Filter;
  readonly label: string;
  /** A fixed choice; a text box when absent. */
  readonly options?: ReadonlyArray<{ value: string; label: string }>;
  readonly width?: number;
}

export function ResourceFilters<Filter extends string>({
  list,
  fields,
  nodes,
}: {
  list: ListStateApi<Filter>;
  fields: readonly FilterField<Filter>[];
  /** The nodes that answered, for the node choice. */
  nodes: ReadonlyArray<{ nodeId: string; nodeName: string }>;
}) {
  const { filters } = list.state;
  return (
    <>
      {fields.map((field) =>
        field.options || field.filter === 'node' ? (
          <Select
            key={field.filter}
            label={field.label}
            placeholder="any"
            clearable
            w={field.width ?? 170}
            data={
              field.options ? [...field.options] : nodes.map((node) => ({ value: node.nodeId, label: node.nodeName }))
            }
            value={filters[field.filter] ?? null}
            onChange={(value) => list.setFilter(field.filter, value ?? undefined)}
          />
        ) : (
          <SearchBox
            key={field.filter}
            label={field.label}
            showLabel
            width={field.width ?? 170}
            placeholder="any"
            value={filters[field.filter] ?? ''}
            onChange={(value) => list.setFilter(field.filter, value || undefined)}
          />
        ),
      )}
    </>
  );
}

/** The filters set in the URL, for the query input. */
export function activeFilters<Filter extends string>(filters: Record<Filter, string | undefined>) {
  return Object.fromEntries(
    Object.entries(filters).filter(([, value]) => value !== undefined && value !== ''),
  ) as Partial<Record<Filter, string>>;
}
