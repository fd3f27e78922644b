'use client';
// Send one message: the address (the queue's, prefilled) and routing type, the body as text, JSON or bytes (base64),
// typed application properties (int stays apart from long), durability, priority and time to live. "Preview" is a
// dry run (validated and audited, nothing sent) showing the node it would go through and the message as the content
// policy echoes it; "Send" sends exactly what was previewed, and shows the echo and the audit row.
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTRPC, type RouterInputs, type RouterOutputs } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { MessageDetails } from './message-details.tsx';

type SendInput = RouterInputs['messages']['send'];
type SendAnswer = RouterOutputs['messages']['send'];
type RoutingType = 'ANYCAST' | 'MULTICAST';
type BodyType = 'text' | 'json' | 'bytes';
type PropertyValue = NonNullable<SendInput['properties']>[string];
type PropertyType = PropertyValue['type'];

const PROPERTY_TYPES: readonly PropertyType[] = [
  'string',
  'int',
  'long',
  'short',
  'byte',
  'double',
  'float',
  'boolean',
  'char',
  'timestamp',
  'uuid',
  'symbol',
];
const INTEGER_TYPES = new Set<PropertyType>(['int', 'short', 'byte', 'ubyte', 'ushort', 'uint']);
const NUMBER_TYPES = new Set<PropertyType>(['float', 'double']);

interface PropertyRow {
  readonly id: number;
  readonly name: string;
  readonly type: PropertyType;
  readonly value: string;
}

/** The typed value of a row, or why it does not fit its type. */
function typedValue(row: PropertyRow): { value: PropertyValue } | { error: string } {
  const text = row.value.trim();
  if (row.type === 'boolean') {
    if (text !== 'true' && text !== 'false') return { error: 'true or false' };
    return { value: { type: 'boolean', value: text === 'true' } };
  }
  if (row.type === 'long' || row.type === 'ulong') {
    // Kept as digits: a long may not fit a JavaScript number.
    if (!/^-?\d+$/.test(text)) return { error: 'a whole number' };
    return { value: { type: row.type, value: text } };
  }
  if (INTEGER_TYPES.has(row.type)) {
    const number = Number(text);
    if (text === '' || !Number.isInteger(number)) return { error: 'a whole number' };
    return { value: { type: row.type, value: number } };
  }
  if (NUMBER_TYPES.has(row.type)) {
    const number = Number(text);
    if (text === '' || !Number.isFinite(number)) return { error: 'a number' };
    return { value: { type: row.type, value: number } };
  }
  if (row.type === 'timestamp') {
    const number = /^-?\d+$/.test(text) ? Number(text) : Date.parse(text);
    if (!Number.isFinite(number)) return { error: 'milliseconds since 1970 or a date, e.g. 2026-01-31T12:00:00Z' };
    return { value: { type: 'timestamp', value: number } };
  }
  if (row.type === 'char' && Array.from(row.value).length !== 1) return { error: 'one character' };
  return { value: { type: row.type, value: row.value } };
}

function bodyOf(type: BodyType, text: string, contentType: string): { body: SendInput['body'] } | { error: string } {
  if (type === 'text') return { body: { type: 'text', text } };
  if (type === 'json') {
    try {
      return { body: { type: 'json', json: JSON.parse(text) as unknown } };
    } catch (error) {
      return { error: `Not JSON: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  const base64 = text.replace(/\s/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 !== 0) return { error: 'Not base64' };
  return { body: { type: 'bytes', base64, ...(contentType.trim() ? { contentType: contentType.trim() } : {}) } };
}

function PropertyRows({ rows, onChange }: { rows: readonly PropertyRow[]; onChange: (rows: PropertyRow[]) => void }) {
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

function Answer({ answer, address }: { answer: SendAnswer; address: string }) {
  const { result } = answer;
  const node = result.nodes.find((candidate) => candidate.outcome !== 'NOT_PRESENT') ?? result.nodes[0];
  const failed = result.nodes.find((candidate) => candidate.failure);
  return (
    <Stack gap="sm" data-testid={result.dryRun ? 'send-preview' : 'send-outcome'}>
      <Alert
        color={failed ? 'red' : result.dryRun ? 'blue' : 'teal'}
        variant="light"
        title={result.dryRun ? 'Preview: nothing was sent' : failed ? 'Not sent' : 'Sent'}
      >
        <Stack gap={4}>
          <Text size="sm">
            {result.dryRun ? 'Would go' : 'Went'} to {address} through <strong>{node?.nodeName ?? 'no node'}</strong>{' '}
            <Badge size="xs" variant="light">
              {node?.outcome.toLowerCase().replace('_', ' ') ?? ''}
            </Badge>
          </Text>
          {failed?.failure && (
            <Text size="sm">
              {failed.failure.kind}: {failed.failure.message}. {failed.failure.advice}
            </Text>
          )}
          <Group gap="xs">
            <Anchor
              component={Link}
              href={`/audit?${new URLSearchParams({ action: result.action, q: address, dryRun: String(result.dryRun) }).toString()}`}
              size="sm"
            >
              Open the audit log
            </Anchor>
            <Text size="xs" c="dimmed">
              audit row {result.auditId}
            </Text>
          </Group>
        </Stack>
      </Alert>
      <Text size="sm" fw={600}>
        {result.dryRun ? 'The message as it would be sent' : 'The message as sent'} (through the content policy)
      </Text>
      <MessageDetails message={answer.echo} />
    </Stack>
  );
}

export function SendMessageDialog({
  clusterId,
  address: initialAddress,
  routingType: initialRouting,
  onClose,
}: {
  clusterId: string;
  address: string;
  routingType: RoutingType;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [address, setAddress] = useState(initialAddress);
  const [routingType, setRoutingType] = useState<RoutingType>(initialRouting);
  const [bodyType, setBodyType] = useState<BodyType>('text');
  const [bodyText, setBodyText] = useState('');
  const [contentType, setContentType] = useState('');
  const [properties, setProperties] = useState<PropertyRow[]>([]);
  const [durable, setDurable] = useState(true);
  const [priority, setPriority] = useState<number | string>(4);
  const [ttl, setTtl] = useState<number | string>('');
  const [previewed, setPreviewed] = useState<{ input: string; answer: SendAnswer } | undefined>();
  const [sent, setSent] = useState<SendAnswer | undefined>();
  const preview = useMutation(trpc.messages.send.mutationOptions());
  const send = useMutation(
    trpc.messages.send.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.messages.browse.pathFilter());
        await queryClient.invalidateQueries(trpc.queues.pathFilter());
      },
    }),
  );

  const body = bodyOf(bodyType, bodyText, contentType);
  const typed = properties.filter((row) => row.name.trim() !== '').map((row) => ({ row, typed: typedValue(row) }));
  const names = typed.map(({ row }) => row.name.trim());
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  const badProperty = typed.find(({ typed: value }) => 'error' in value);
  const problem =
    'error' in body
      ? body.error
      : duplicate
        ? `The property ${duplicate} is there twice`
        : badProperty
          ? `The property ${badProperty.row.name} must be ${'error' in badProperty.typed ? badProperty.typed.error : ''}`
          : address.trim() === ''
            ? 'Give an address'
            : undefined;
  const input: SendInput | undefined =
    problem || 'error' in body
      ? undefined
      : {
          clusterId,
          address: address.trim(),
          routingType,
          body: body.body,
          ...(typed.length > 0
            ? {
                properties: Object.fromEntries(
                  typed.map(({ row, typed: value }) => [row.name.trim(), 'value' in value ? value.value : null]),
                ) as SendInput['properties'],
              }
            : {}),
          headers: {
            durable,
            ...(typeof priority === 'number' ? { priority } : {}),
            ...(typeof ttl === 'number' && ttl > 0 ? { ttlMs: ttl } : {}),
          },
          dryRun: true,
          clear: false,
        };
  const key = input ? JSON.stringify(input) : undefined;
  const current = previewed && previewed.input === key ? previewed.answer : undefined;
  const previewFailed = current?.result.nodes.some((node) => node.outcome === 'FAILED') ?? false;

  if (sent)
    return (
      <Modal opened onClose={onClose} title="Send a message" size="xl">
        <Stack gap="md">
          <Answer answer={sent} address={address.trim()} />
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => {
                setSent(undefined);
                setPreviewed(undefined);
              }}
            >
              Send another
            </Button>
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      </Modal>
    );

  return (
    <Modal opened onClose={onClose} title="Send a message" size="xl" data-testid="send-dialog">
      <Stack gap="md">
        <Group grow align="flex-start">
          <TextInput
            label="Address"
            description="An address, or a queue’s name"
            required
            value={address}
            onChange={(event) => setAddress(event.currentTarget.value)}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Routing type
            </Text>
            <SegmentedControl
              aria-label="Routing type"
              data={[
                { value: 'ANYCAST', label: 'Anycast' },
                { value: 'MULTICAST', label: 'Multicast' },
              ]}
              value={routingType}
              onChange={(value) => setRoutingType(value)}
            />
          </Stack>
        </Group>
        <Stack gap={4}>
          <Group justify="space-between">
            <Text size="sm" fw={500}>
              Body
            </Text>
            <SegmentedControl
              size="xs"
              aria-label="Body type"
              data={[
                { value: 'text', label: 'Text' },
                { value: 'json', label: 'JSON' },
                { value: 'bytes', label: 'Bytes (base64)' },
              ]}
              value={bodyType}
              onChange={(value) => setBodyType(value)}
            />
          </Group>
          <Textarea
            aria-label="Body"
            placeholder={
              bodyType === 'json' ? '{"orderId": 42}' : bodyType === 'bytes' ? 'SGVsbG8=' : 'The message text'
            }
            value={bodyText}
            onChange={(event) => setBodyText(event.currentTarget.value)}
            autosize
            minRows={4}
            maxRows={14}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            error={bodyText !== '' && 'error' in body ? body.error : undefined}
          />
          {bodyType === 'bytes' && (
            <TextInput
              label="Content type"
              placeholder="application/octet-stream"
              value={contentType}
              onChange={(event) => setContentType(event.currentTarget.value)}
              w={320}
            />
          )}
        </Stack>
        <PropertyRows rows={properties} onChange={setProperties} />
        <Group align="flex-end">
          <NumberInput
            label="Priority"
            min={0}
            max={9}
            allowDecimal={false}
            value={priority}
            onChange={setPriority}
            w={110}
          />
          <NumberInput
            label="Time to live (ms)"
            description="Empty: never expires"
            min={1}
            allowDecimal={false}
            value={ttl}
            onChange={setTtl}
            w={200}
          />
          <Checkbox
            label="Durable"
            checked={durable}
            onChange={(event) => setDurable(event.currentTarget.checked)}
            mb={8}
          />
        </Group>
        {problem && !(bodyText === '' && 'error' in body) && (
          <Text size="sm" c="red">
            {problem}
          </Text>
        )}
        {preview.isError && <ProblemView error={preview.error} />}
        {send.isError && <ProblemView error={send.error} />}
        {current && <Answer answer={current} address={address.trim()} />}
        <Group justify="flex-end">
          <Button
            variant={current ? 'default' : 'filled'}
            disabled={!input}
            loading={preview.isPending}
            onClick={() => {
              if (!input || !key) return;
              preview.mutate(input, { onSuccess: (answer) => setPreviewed({ input: key, answer }) });
            }}
          >
            {current ? 'Preview again' : 'Preview'}
          </Button>
          <Button
            disabled={!current || previewFailed || !input}
            loading={send.isPending}
            onClick={() => {
              if (!input) return;
              send.mutate({ ...input, dryRun: false }, { onSuccess: (answer) => setSent(answer) });
            }}
          >
            Send
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
