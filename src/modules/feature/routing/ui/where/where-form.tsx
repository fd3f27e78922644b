'use client';
// The question "where would this message go?": the address, the routing type it is sent with (or none), its
// properties with typed values (a filter compares a number with a number, not with its text) and the headers that
// filters read (priority, durable, type, correlation id).
import {
  ActionIcon,
  Button,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState, type SyntheticEvent } from 'react';
import type { ProbeMessage, ProbeValue } from '../../model/where/where-types.ts';

type ValueType = 'string' | 'number' | 'boolean' | 'null';

interface PropertyRow {
  readonly key: number;
  readonly name: string;
  readonly type: ValueType;
  readonly value: string;
}

const VALUE_TYPES: Array<{ value: ValueType; label: string }> = [
  { value: 'string', label: 'Text' },
  { value: 'number', label: 'Number' },
  { value: 'boolean', label: 'Boolean' },
  { value: 'null', label: 'Null' },
];

/** The typed value of a row, or the reason it has none. */
export function valueOf(row: Pick<PropertyRow, 'type' | 'value'>): { value: ProbeValue } | { error: string } {
  switch (row.type) {
    case 'string':
      return { value: row.value };
    case 'null':
      return { value: null };
    case 'boolean':
      return row.value === 'true' || row.value === 'false'
        ? { value: row.value === 'true' }
        : { error: 'true or false' };
    case 'number': {
      const number = Number(row.value);
      return row.value.trim() !== '' && Number.isFinite(number) ? { value: number } : { error: 'a number' };
    }
  }
}

let nextKey = 1;
const emptyRow = (): PropertyRow => ({ key: nextKey++, name: '', type: 'string', value: '' });

export function WhereForm({ onAsk, pending }: { onAsk: (message: ProbeMessage) => void; pending: boolean }) {
  const [address, setAddress] = useState('');
  const [routingType, setRoutingType] = useState<'unset' | 'ANYCAST' | 'MULTICAST'>('unset');
  const [rows, setRows] = useState<PropertyRow[]>([]);
  const [priority, setPriority] = useState<number | string>('');
  const [durable, setDurable] = useState<string | null>(null);
  const [type, setType] = useState('');
  const [correlationId, setCorrelationId] = useState('');
  const [tried, setTried] = useState(false);

  const errors = rows.map((row) => {
    if (!row.name.trim()) return 'A property needs a name';
    const typed = valueOf(row);
    return 'error' in typed ? `The value must be ${typed.error}` : undefined;
  });
  const addressError = address.trim() ? undefined : 'The address to send to';

  const update = (key: number, change: Partial<PropertyRow>) =>
    setRows((all) => all.map((row) => (row.key === key ? { ...row, ...change } : row)));

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    setTried(true);
    if (addressError || errors.some(Boolean)) return;
    const properties: Record<string, ProbeValue> = {};
    for (const row of rows) {
      const typed = valueOf(row);
      if ('value' in typed) properties[row.name.trim()] = typed.value;
    }
    onAsk({
      address: address.trim(),
      ...(routingType === 'unset' ? {} : { routingType }),
      properties,
      headers: {
        ...(typeof priority === 'number' ? { priority } : {}),
        ...(durable === null ? {} : { durable: durable === 'durable' }),
        ...(type.trim() ? { type: type.trim() } : {}),
        ...(correlationId.trim() ? { correlationId: correlationId.trim() } : {}),
      },
    });
  };

  return (
    <form onSubmit={submit} data-testid="where-form">
      <Stack gap="sm">
        <Group align="flex-end" gap="sm">
          <TextInput
            label="Address"
            description="Or address::queue for one queue"
            placeholder="orders"
            value={address}
            onChange={(event) => setAddress(event.currentTarget.value)}
            error={tried && addressError}
            w={320}
            data-testid="where-address"
          />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Routing type
            </Text>
            <SegmentedControl
              value={routingType}
              onChange={(value) => setRoutingType(value)}
              data={[
                { value: 'unset', label: 'Not set' },
                { value: 'ANYCAST', label: 'Anycast' },
                { value: 'MULTICAST', label: 'Multicast' },
              ]}
              data-testid="where-routing-type"
            />
          </Stack>
        </Group>
        <Text size="sm" fw={500}>
          Properties
        </Text>
        {rows.length === 0 && (
          <Text size="sm" c="dimmed">
            None: a filter on a property sees it unset.
          </Text>
        )}
        {rows.map((row, index) => (
          <Group key={row.key} gap="xs" align="flex-start" data-testid="where-property">
            <TextInput
              aria-label="Property name"
              placeholder="name"
              value={row.name}
              onChange={(event) => update(row.key, { name: event.currentTarget.value })}
              error={tried && errors[index]?.startsWith('A property') ? errors[index] : undefined}
              w={200}
            />
            <Select
              aria-label="Property type"
              data={VALUE_TYPES}
              value={row.type}
              onChange={(value) => value && update(row.key, { type: value })}
              allowDeselect={false}
              w={120}
            />
            {row.type !== 'null' && (
              <TextInput
                aria-label="Property value"
                placeholder={row.type === 'boolean' ? 'true or false' : 'value'}
                value={row.value}
                onChange={(event) => update(row.key, { value: event.currentTarget.value })}
                error={tried && errors[index]?.startsWith('The value') ? errors[index] : undefined}
                w={220}
              />
            )}
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label="Remove the property"
              onClick={() => setRows((all) => all.filter((other) => other.key !== row.key))}
              mt={4}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Group>
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => setRows((all) => [...all, emptyRow()])}
            data-testid="where-add-property"
          >
            Add a property
          </Button>
        </Group>
        <Text size="sm" fw={500}>
          Headers
        </Text>
        <Group gap="sm" align="flex-end">
          <NumberInput
            label="Priority"
            placeholder="4"
            min={0}
            max={9}
            allowDecimal={false}
            value={priority}
            onChange={setPriority}
            w={100}
          />
          <Select
            label="Durable"
            placeholder="Not set"
            data={[
              { value: 'durable', label: 'Durable' },
              { value: 'non-durable', label: 'Non-durable' },
            ]}
            value={durable}
            onChange={setDurable}
            clearable
            w={150}
          />
          <TextInput label="Type" value={type} onChange={(event) => setType(event.currentTarget.value)} w={180} />
          <TextInput
            label="Correlation id"
            value={correlationId}
            onChange={(event) => setCorrelationId(event.currentTarget.value)}
            w={220}
          />
        </Group>
        <Group>
          <Button type="submit" loading={pending} data-testid="where-ask">
            Where would it go?
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
