'use client';
import { Group, Pagination, Select, Text } from '@mantine/core';
import { PAGE_SIZES, type ListStateApi } from './list-state.ts';

export function TablePager<Filter extends string>({
  list,
  total,
}: {
  list: ListStateApi<Filter>;
  total: number | undefined;
}) {
  const { page, pageSize } = list.state;
  const pages = Math.max(1, Math.ceil((total ?? 0) / pageSize));
  const first = total ? (page - 1) * pageSize + 1 : 0;
  const last = total ? Math.min(total, page * pageSize) : 0;
  return (
    <Group justify="space-between" mih={36}>
      <Text size="sm" c="dimmed" data-testid="table-range" aria-live="polite">
        {total === undefined ? '\u00a0' : total === 0 ? 'No rows' : `${first}–${last} of ${total}`}
      </Text>
      <Group gap="sm">
        <Select
          aria-label="Rows per page"
          data={PAGE_SIZES.map((size) => ({ value: String(size), label: `${size} per page` }))}
          value={String(pageSize)}
          onChange={(value) => value && list.setPageSize(Number(value))}
          allowDeselect={false}
          w={140}
        />
        <Pagination
          total={pages}
          value={Math.min(page, pages)}
          onChange={list.setPage}
          withEdges
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(item) => ({
            'aria-label': `Page ${item}`,
            'aria-current': item === page ? 'page' : undefined,
          })}
        />
      </Group>
    </Group>
  );
}
