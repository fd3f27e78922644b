'use client';
// The form view of the declared document: the '#' address setting's most tuned fields and a way to declare a queue.
// It edits the editor's text (document-text.ts), so the two views are one document; a field the server refused is
// marked under the field.
import {
  Alert,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import type { FieldError } from './config-problem.ts';
import {
  catchAllSettings,
  CATCH_ALL,
  FORM_FIELDS,
  FULL_POLICIES,
  withCatchAllSetting,
  withQueue,
  type JsonObject,
} from './document-text.ts';

const LABELS: Record<string, string> = {
  deadLetterAddress: 'Dead-letter address',
  expiryAddress: 'Expiry address',
  maxDeliveryAttempts: 'Max delivery attempts',
  redeliveryDelay: 'Redelivery delay (ms)',
  redistributionDelay: 'Redistribution delay (ms)',
  maxSizeBytes: 'Max size (bytes)',
  addressFullMessagePolicy: 'When the address is full',
  autoCreateQueues: 'Auto-create queues',
  autoCreateAddresses: 'Auto-create addresses',
};

const FLAG_CHOICES = [
  { value: 'true', label: 'yes' },
  { value: 'false', label: 'no' },
];

export function ConfigForm({
  document,
  onChange,
  fieldErrors,
}: {
  document: JsonObject;
  onChange: (document: JsonObject) => void;
  fieldErrors: readonly FieldError[];
}) {
  const settings = catchAllSettings(document);
  const index = Array.isArray(document.addressSettings)
    ? (document.addressSettings as unknown[]).findIndex(
        (item) => typeof item === 'object' && item !== null && (item as JsonObject).match === CATCH_ALL,
      )
    : -1;
  const errorOf = (field: string) =>
    index < 0
      ? undefined
      : fieldErrors.find((error) => error.path === `addressSettings.${String(index)}.settings.${field}`)?.message;
  const set = (field: string, value: unknown) => onChange(withCatchAllSetting(document, field, value));
  const text = (field: string) => (typeof settings[field] === 'string' ? settings[field] : '');
  const number = (field: string) => (typeof settings[field] === 'number' ? settings[field] : '');
  const flag = (field: string) => (typeof settings[field] === 'boolean' ? String(settings[field]) : null);
  const policy = settings[FORM_FIELDS.policy];

  return (
    <Stack gap="md" data-testid="config-form">
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <div>
            <Text fw={600}>Every address ({CATCH_ALL})</Text>
            <Text size="sm" c="dimmed">
              The catch-all address setting. An empty field is not declared: the broker keeps its own value.
            </Text>
          </div>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {FORM_FIELDS.text.map((field) => (
              <TextInput
                key={field}
                label={LABELS[field]}
                value={text(field)}
                error={errorOf(field)}
                onChange={(event) => set(field, event.currentTarget.value.trim() || undefined)}
              />
            ))}
            {FORM_FIELDS.number.map((field) => (
              <NumberInput
                key={field}
                label={LABELS[field]}
                value={number(field)}
                error={errorOf(field)}
                allowDecimal={false}
                min={-1}
                onChange={(value) => set(field, typeof value === 'number' ? value : undefined)}
              />
            ))}
            <Select
              label={LABELS[FORM_FIELDS.policy]}
              placeholder="not declared"
              clearable
              data={[...FULL_POLICIES]}
              value={typeof policy === 'string' ? policy : null}
              error={errorOf(FORM_FIELDS.policy)}
              onChange={(value) => set(FORM_FIELDS.policy, value ?? undefined)}
            />
            {FORM_FIELDS.flags.map((field) => (
              <Select
                key={field}
                label={LABELS[field]}
                placeholder="not declared"
                clearable
                data={FLAG_CHOICES}
                value={flag(field)}
                error={errorOf(field)}
                onChange={(value) => set(field, value === null ? undefined : value === 'true')}
              />
            ))}
          </SimpleGrid>
        </Stack>
      </Paper>
      <AddQueue document={document} onChange={onChange} />
    </Stack>
  );
}

function AddQueue({ document, onChange }: { document: JsonObject; onChange: (document: JsonObject) => void }) {
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const [routingType, setRoutingType] = useState<'ANYCAST' | 'MULTICAST'>('ANYCAST');
  const [durable, setDurable] = useState(true);
  const [refusal, setRefusal] = useState<string | undefined>(undefined);
  const declared = Array.isArray(document.queues) ? document.queues.length : 0;
  const add = () => {
    const queue = { name: name.trim(), address: address.trim() || name.trim(), routingType, durable };
    const next = withQueue(document, queue);
    if ('error' in next) {
      setRefusal(next.error);
      return;
    }
    setRefusal(undefined);
    setName('');
    setAddress('');
    onChange(next.document);
  };
  return (
    <Paper withBorder p="md" radius="md" data-testid="add-queue">
      <Stack gap="sm">
        <div>
          <Text fw={600}>Declare a queue</Text>
          <Text size="sm" c="dimmed">
            {declared === 0 ? 'No queue is declared yet.' : `${String(declared)} declared.`} The address is the
            queue&apos;s name when left empty.
          </Text>
        </div>
        <Group align="flex-end" wrap="wrap">
          <TextInput label="Queue name" value={name} onChange={(event) => setName(event.currentTarget.value)} w={220} />
          <TextInput
            label="Address"
            value={address}
            placeholder={name || 'the queue name'}
            onChange={(event) => setAddress(event.currentTarget.value)}
            w={220}
          />
          <Select
            label="Routing type"
            data={['ANYCAST', 'MULTICAST']}
            value={routingType}
            allowDeselect={false}
            onChange={(value) => setRoutingType(value === 'MULTICAST' ? 'MULTICAST' : 'ANYCAST')}
            w={150}
          />
          <Checkbox
            label="Durable"
            checked={durable}
            onChange={(event) => setDurable(event.currentTarget.checked)}
            mb={8}
          />
          <Button variant="light" onClick={add} disabled={!name.trim()}>
            Add queue
          </Button>
        </Group>
        {refusal && (
          <Alert color="red" variant="light">
            {refusal}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
