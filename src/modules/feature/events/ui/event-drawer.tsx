'use client';
// One event with every property: the lifted fields, then each notification property with its AMQP type.
import { Code, Drawer, Stack, Table, Text } from '@mantine/core';
import type { EventRow } from './event-columns.tsx';

type ScalarField = Exclude<keyof EventRow, 'properties' | 'redactions'>;

const FIELDS: ReadonlyArray<[ScalarField, string]> = [
  ['kind', 'Kind'],
  ['brokerTime', 'Raised at (broker)'],
  ['receivedAt', 'Received at'],
  ['brokerName', 'Node'],
  ['logicalNode', 'Logical node'],
  ['address', 'Address'],
  ['queue', 'Queue'],
  ['consumerId', 'Consumer'],
  ['sessionId', 'Session'],
  ['connectionId', 'Connection'],
  ['remoteAddress', 'Remote address'],
  ['user', 'User'],
  ['seq', 'Seq'],
];

export function EventDrawer({ event, onClose }: { event: EventRow | undefined; onClose: () => void }) {
  return (
    <Drawer opened={event !== undefined} onClose={onClose} position="right" size="lg" title={event?.kind ?? ''}>
      {event && (
        <Stack gap="md" data-testid="event-details">
          <Table variant="vertical" layout="fixed">
            <Table.Tbody>
              {FIELDS.map(([field, label]) => (
                <Table.Tr key={field}>
                  <Table.Th w={160}>{label}</Table.Th>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{String(event[field] ?? '—')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text fw={600} size="sm">
            Properties
          </Text>
          <Table variant="vertical" layout="fixed" data-testid="event-properties">
            <Table.Tbody>
              {Object.entries(event.properties).map(([name, typed]) => (
                <Table.Tr key={name}>
                  <Table.Th w={200}>
                    <Code>{name}</Code>
                  </Table.Th>
                  <Table.Td style={{ wordBreak: 'break-all' }}>
                    {typeof typed.value === 'string' ? typed.value : JSON.stringify(typed.value)}{' '}
                    <Text span size="xs" c="dimmed">
                      {typed.type}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      )}
    </Drawer>
  );
}
