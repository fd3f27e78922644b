'use client';
// A form drawn from the JSON Schema the alerting API publishes for a condition's parameters or a channel kind's
// configuration, so a condition another module contributes, or a channel kind added to the API, gets its form with
// no console change. It knows what those schemas use: strings (secrets masked), numbers, integers, booleans, enums
// and lists of strings (one per line). Values are kept as the API takes them; an empty field is left out.
import { NumberInput, PasswordInput, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { fieldsOf, labelOf, typeOf, type FormValues, type JsonSchema } from './schema-fields.ts';

const SECRET_NAMES = /secret|password|token/i;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function Field({
  name,
  schema,
  required,
  value,
  onChange,
}: {
  name: string;
  schema: JsonSchema;
  required: boolean;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const label = labelOf(name);
  const common = { label, description: schema.description, required, 'data-field': name };
  const type = typeOf(schema);
  if (schema.enum) {
    const options = schema.enum.map(String);
    return (
      <Select
        {...common}
        data={options}
        value={typeof value === 'string' || typeof value === 'number' ? String(value) : null}
        onChange={(picked) => onChange(picked ?? undefined)}
        allowDeselect={!required}
        clearable={!required}
      />
    );
  }
  if (type === 'boolean') {
    return (
      <Switch
        label={label}
        description={schema.description}
        checked={value === true}
        onChange={(event) => onChange(event.currentTarget.checked)}
        data-field={name}
      />
    );
  }
  if (type === 'number' || type === 'integer') {
    return (
      <NumberInput
        {...common}
        value={typeof value === 'number' ? value : ''}
        allowDecimal={type === 'number'}
        min={schema.minimum}
        max={schema.maximum !== undefined && schema.maximum < MAX_SAFE ? schema.maximum : undefined}
        onChange={(next) => onChange(typeof next === 'number' ? next : undefined)}
      />
    );
  }
  if (type === 'array') {
    return (
      <Textarea
        {...common}
        description={schema.description ?? 'One per line'}
        autosize
        minRows={2}
        value={Array.isArray(value) ? value.join('\n') : ''}
        onChange={(event) => {
          const lines = event.currentTarget.value
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean);
          onChange(lines.length > 0 ? lines : undefined);
        }}
      />
    );
  }
  const Input = SECRET_NAMES.test(name) ? PasswordInput : TextInput;
  return (
    <Input
      {...common}
      placeholder={schema.format === 'uri' ? 'https://…' : undefined}
      value={typeof value === 'string' ? value : ''}
      onChange={(event) => onChange(event.currentTarget.value === '' ? undefined : event.currentTarget.value)}
    />
  );
}

export function SchemaForm({
  schema,
  values,
  onChange,
}: {
  schema: JsonSchema | undefined;
  values: FormValues;
  onChange: (values: FormValues) => void;
}) {
  const fields = fieldsOf(schema);
  if (fields.length === 0) return null;
  const required = new Set(schema?.required ?? []);
  return (
    <Stack gap="xs">
      {fields.map(([name, property]) => (
        <Field
          key={name}
          name={name}
          schema={property}
          required={required.has(name)}
          value={values[name]}
          onChange={(value) => {
            const others = Object.entries(values).filter(([key]) => key !== name);
            onChange(Object.fromEntries(value === undefined ? others : [...others, [name, value]]));
          }}
        />
      ))}
    </Stack>
  );
}
