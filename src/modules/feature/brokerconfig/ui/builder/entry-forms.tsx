'use client';
// The Builder's three forms — a divert, a queue, a bridge — as one form over a list of fields each. Submitting hands the
// entry to edit-document.ts, which checks it with the document's schema: a refusal is shown under its field (or above
// the button when it concerns the whole entry) and the form keeps what was typed; an accepted entry empties the form.
import { Alert, Button, Group, Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { FieldError } from '../config-problem.ts';
import type { ConfigDocument } from '../../server/model/document.ts';
import { withEntry, type BuilderSection, type EditResult, type EntryOf } from './edit-document.ts';

type Field =
  | {
      readonly key: string;
      readonly label: string;
      readonly kind: 'text';
      readonly required?: boolean;
      readonly hint?: string;
    }
  | { readonly key: string; readonly label: string; readonly kind: 'list'; readonly hint: string }
  | { readonly key: string; readonly label: string; readonly kind: 'choice'; readonly choices: readonly string[] }
  | { readonly key: string; readonly label: string; readonly kind: 'flag'; readonly hint: string };

type Values = Record<string, string | boolean>;

const FILTER_HINT = 'A JMS selector, e.g. region = ’eu’; empty: every message';

export const FORMS: Record<BuilderSection, { readonly noun: string; readonly fields: readonly Field[] }> = {
  diverts: {
    noun: 'divert',
    fields: [
      { key: 'name', label: 'Name', kind: 'text', required: true },
      { key: 'address', label: 'On address', kind: 'text', required: true, hint: 'The address it watches' },
      { key: 'forwardingAddress', label: 'Forwarding address', kind: 'text', required: true },
      { key: 'filter', label: 'Filter', kind: 'text', hint: FILTER_HINT },
      {
        key: 'routingType',
        label: 'Routing type of what it forwards',
        kind: 'choice',
        choices: ['STRIP', 'PASS', 'ANYCAST', 'MULTICAST'],
      },
      { key: 'exclusive', label: 'Exclusive', kind: 'flag', hint: 'The message goes only to the forwarding address' },
      { key: 'transformerClassName', label: 'Transformer class', kind: 'text' },
    ],
  },
  queues: {
    noun: 'queue',
    fields: [
      { key: 'name', label: 'Name', kind: 'text', required: true },
      { key: 'address', label: 'Address', kind: 'text', required: true },
      { key: 'routingType', label: 'Routing type', kind: 'choice', choices: ['ANYCAST', 'MULTICAST'] },
      { key: 'filter', label: 'Filter', kind: 'text', hint: FILTER_HINT },
      { key: 'durable', label: 'Durable', kind: 'flag', hint: 'Its messages survive a restart' },
    ],
  },
  bridges: {
    noun: 'bridge',
    fields: [
      { key: 'name', label: 'Name', kind: 'text', required: true },
      { key: 'queueName', label: 'Queue it consumes', kind: 'text', required: true },
      {
        key: 'forwardingAddress',
        label: 'Forwarding address',
        kind: 'text',
        hint: 'On the remote broker; empty: the original address',
      },
      { key: 'staticConnectors', label: 'Static connectors', kind: 'list', hint: 'Connector names, comma-separated' },
      { key: 'discoveryGroupName', label: 'Discovery group', kind: 'text', hint: 'Instead of static connectors' },
      { key: 'filter', label: 'Filter', kind: 'text', hint: FILTER_HINT },
    ],
  },
};

const initialValues = (fields: readonly Field[]): Values =>
  Object.fromEntries(
    fields.map((field) => [
      field.key,
      field.kind === 'flag' ? field.key === 'durable' : field.kind === 'choice' ? (field.choices[0] ?? '') : '',
    ]),
  );

/** The form's values as an entry: a list field split at commas; blanks are dropped by edit-document. */
const entryOf = (fields: readonly Field[], values: Values): Record<string, unknown> =>
  Object.fromEntries(
    fields.map((field) => {
      const value = values[field.key];
      return [field.key, field.kind === 'list' && typeof value === 'string' ? value.split(',') : value];
    }),
  );

export function EntryForm({
  section,
  document,
  disabled,
  onAdded,
}: {
  section: BuilderSection;
  document: ConfigDocument;
  disabled: boolean;
  onAdded: (document: ConfigDocument, name: string) => void;
}) {
  const { noun, fields } = FORMS[section];
  const [values, setValues] = useState<Values>(() => initialValues(fields));
  const [errors, setErrors] = useState<readonly FieldError[]>([]);
  const errorOf = (key: string) =>
    errors
      .filter((error) => error.path === key || error.path.startsWith(`${key}.`))
      .map((error) => error.message)
      .join('; ') || undefined;
  const entryErrors = errors.filter((error) => !fields.some((field) => error.path.split('.')[0] === field.key));
  const set = (key: string, value: string | boolean) => setValues((before) => ({ ...before, [key]: value }));

  const submit = () => {
    const result: EditResult = withEntry(document, section, entryOf(fields, values) as EntryOf<BuilderSection>);
    if ('errors' in result) {
      setErrors(result.errors);
      return;
    }
    setErrors([]);
    setValues(initialValues(fields));
    onAdded(result.document, String(values.name).trim());
  };

  return (
    <form
      data-testid={`builder-form-${noun}`}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
          {fields.map((field) => {
            const common = { label: field.label, disabled, error: errorOf(field.key) };
            const value = values[field.key];
            if (field.kind === 'flag')
              return (
                <Switch
                  key={field.key}
                  {...common}
                  mt="md"
                  description={field.hint}
                  checked={value === true}
                  onChange={(event) => set(field.key, event.currentTarget.checked)}
                />
              );
            if (field.kind === 'choice')
              return (
                <Select
                  key={field.key}
                  {...common}
                  data={[...field.choices]}
                  allowDeselect={false}
                  value={typeof value === 'string' ? value : null}
                  onChange={(picked) => picked && set(field.key, picked)}
                />
              );
            return (
              <TextInput
                key={field.key}
                {...common}
                required={field.kind === 'text' && field.required}
                description={field.hint}
                value={typeof value === 'string' ? value : ''}
                onChange={(event) => set(field.key, event.currentTarget.value)}
              />
            );
          })}
        </SimpleGrid>
        {entryErrors.length > 0 && (
          <Alert color="red" variant="light" data-testid="builder-entry-errors">
            {entryErrors.map((error) => error.message).join('; ')}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" variant="light" disabled={disabled}>
            Add {noun} to the draft
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
