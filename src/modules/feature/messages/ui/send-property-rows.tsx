'use client';
// The send form's application properties: one row each of name, type and value, the value checked against its
// type as it is typed (send-request.ts says what fits).
import { ActionIcon, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { PROPERTY_TYPES, typedValue, type PropertyRow, type PropertyType } from './send-request.ts';

export function PropertyRows({
  rows,
  onChange,
}: {
  rows: readonly PropertyRow[];
  onChange: (rows: PropertyRow[]) => void;
}) {
  const update = (id: number, change: Partial<PropertyRow>) =>
    onChange(rows.map((row) => (row.id === id ? { ...row, ...change } : row)));
  return (
    <Stack gap="xs" data-testid="send-properties">
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          Properties
        </Text>
        <Button
          size="compact-sm"
          variant="light"
          leftSection={<IconPlus size={14} />}
          onClick={() =>
            onChange([
              ...rows,
              { id: Math.max(0, ...rows.map((row) => row.id)) + 1, name: '', type: 'string', value: '' },
            ])
          }
        >
          Add property
        </Button>
      </Group>
      {rows.length === 0 && (
        <Text size="sm" c="dimmed">
          No application properties.
        </Text>
      )}
      {rows.map((row, index) => {
        const typed = typedValue(row);
        return (
          <Group key={row.id} gap="xs" align="flex-start" wrap="nowrap" data-property-row={index}>
            <TextInput
              aria-label={`Property ${index + 1} name`}
              placeholder="name"
              value={row.name}
              onChange={(event) => update(row.id, { name: event.currentTarget.value })}
              w={200}
            />
            <Select
              aria-label={`Property ${index + 1} type`}
              data={PROPERTY_TYPES as PropertyType[]}
              value={row.type}
              onChange={(value) => value && update(row.id, { type: value })}
              allowDeselect={false}
              w={130}
            />
            {row.type === 'boolean' ? (
              <Select
                aria-label={`Property ${index + 1} value`}
                data={['true', 'false']}
                value={row.value || null}
                onChange={(value) => update(row.id, { value: value ?? '' })}
                style={{ flex: 1 }}
              />
            ) : (
              <TextInput
                aria-label={`Property ${index + 1} value`}
                placeholder="value"
                value={row.value}
                onChange={(event) => update(row.id, { value: event.currentTarget.value })}
                error={row.value !== '' && 'error' in typed ? typed.error : undefined}
                style={{ flex: 1 }}
              />
            )}
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={`Remove property ${index + 1}`}
              onClick={() => onChange(rows.filter((other) => other.id !== row.id))}
              mt={6}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        );
      })}
    </Stack>
  );
}
