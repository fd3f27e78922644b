'use client';
// The send form's fields, top to bottom: where the message goes, its body, and its headers. Each part shows the
// form's state and hands a change of one field back.
import { Checkbox, Group, NumberInput, SegmentedControl, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { SendForm } from './send-request.ts';

interface FieldsProps {
  readonly form: SendForm;
  readonly update: <Field extends keyof SendForm>(field: Field, value: SendForm[Field]) => void;
}

export function AddressFields({ form, update }: FieldsProps) {
  return (
    <Group grow align="flex-start">
      <TextInput
        label="Address"
        description="An address, or a queue’s name"
        required
        value={form.address}
        onChange={(event) => update('address', event.currentTarget.value)}
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
          value={form.routingType}
          onChange={(value) => update('routingType', value)}
        />
      </Stack>
    </Group>
  );
}

/** The body and its type; `error` is what is wrong with it (shown once something is typed). */
export function BodyFields({ form, update, error }: FieldsProps & { readonly error: string | undefined }) {
  const { bodyType, bodyText } = form;
  return (
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
          onChange={(value) => update('bodyType', value)}
        />
      </Group>
      <Textarea
        aria-label="Body"
        placeholder={bodyType === 'json' ? '{"orderId": 42}' : bodyType === 'bytes' ? 'SGVsbG8=' : 'The message text'}
        value={bodyText}
        onChange={(event) => update('bodyText', event.currentTarget.value)}
        autosize
        minRows={4}
        maxRows={14}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        error={bodyText !== '' ? error : undefined}
      />
      {bodyType === 'bytes' && (
        <TextInput
          label="Content type"
          placeholder="application/octet-stream"
          value={form.contentType}
          onChange={(event) => update('contentType', event.currentTarget.value)}
          w={320}
        />
      )}
    </Stack>
  );
}

export function HeaderFields({ form, update }: FieldsProps) {
  return (
    <Group align="flex-end">
      <NumberInput
        label="Priority"
        min={0}
        max={9}
        allowDecimal={false}
        value={form.priority}
        onChange={(value) => update('priority', value)}
        w={110}
      />
      <NumberInput
        label="Time to live (ms)"
        description="Empty: never expires"
        min={1}
        allowDecimal={false}
        value={form.ttl}
        onChange={(value) => update('ttl', value)}
        w={200}
      />
      <Checkbox
        label="Durable"
        checked={form.durable}
        onChange={(event) => update('durable', event.currentTarget.checked)}
        mb={8}
      />
    </Group>
  );
}
