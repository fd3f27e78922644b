'use client';
// A form drawn from the JSON Schema the alerting API publishes for a condition's parameters or a channel kind's
// configuration, so a condition another module contributes, or a channel kind added to the API, gets its form with
// no console change. It knows what those schemas use: strings (secrets masked), numbers, integers, booleans, enums
// and lists of strings (one per line). Values are kept as the API takes them; an empty field is left out.
import { NumberInput, PasswordInput, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';

export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly default?: unknown;
  readonly description?: string;
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly items?: JsonSchema;
}

export type FormValues = Record<string, unknown>;

const SECRET_NAMES = /secret|password|token/i;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** "windowSeconds" → "Window seconds"; "url" → "URL". */
function labelOf(name: string): string {
  if (/^(url|smtp|tls)$/i.test(name)) return name.toUpperCase();
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const typeOf = (schema: JsonSchema) =>
  (Array.isArray(schema.type) ? schema.type[0] : schema.type) as string | undefined;

/** The fields a person fills in: every property but a constant (a channel's `kind`). */
function fieldsOf(schema: JsonSchema | undefined): [string, JsonSchema][] {
  return Object.entries(schema?.properties ?? {}).filter(([, property]) => property.const === undefined);
}

/** The values a fresh form starts with: each field's default, when it has one. */
export function defaultsOf(schema: JsonSchema | undefined): FormValues {
  return Object.fromEntries(
    fieldsOf(schema).flatMap(([name, property]) => (property.default === undefined ? [] : [[name, property.default]])),
  );
}

/** Required fields still empty, by label (the form is not ready while any is). */
export function missingOf(schema: JsonSchema | undefined, values: FormValues): string[] {
  return (schema?.required ?? [])
    .filter((name) => schema?.properties?.[name]?.const === undefined)
    .filter((name) => values[name] === undefined || values[name] === '')
    .map(labelOf);
}

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
