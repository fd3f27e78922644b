'use client';
import { Button, Checkbox, Menu } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import type { Column } from './column.ts';

export function ColumnMenu<Row>({
  columns,
  hidden,
  onToggle,
}: {
  columns: readonly Column<Row>[];
  hidden: ReadonlySet<string>;
  onToggle: (id: string) => void;
}) {
  return (
    <Menu closeOnItemClick={false} position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" leftSection={<IconColumns size={16} />}>
          Columns
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Show columns</Menu.Label>
        {columns.map((column) => (
          <Menu.Item
            key={column.id}
            onClick={() => onToggle(column.id)}
            // The checkbox only shows the state: were it clickable, its label would click it a second time.
            leftSection={
              <Checkbox
                checked={!hidden.has(column.id)}
                readOnly
                tabIndex={-1}
                aria-hidden
                size="xs"
                style={{ pointerEvents: 'none' }}
              />
            }
          >
            {column.header}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
