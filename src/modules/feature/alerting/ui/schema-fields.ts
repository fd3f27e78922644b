// The JSON Schema the alerting API publishes for a condition's parameters or a channel kind's configuration, read
// as a form: which fields a person fills in, their labels, defaults, and which required ones are still empty.
// Pure, so the unit test pins it; schema-form.tsx draws the inputs.
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

/** "windowSeconds" → "Window seconds"; "url" → "URL". */
export function labelOf(name: string): string {
  if (/^(url|smtp|tls)$/i.test(name)) return name.toUpperCase();
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const typeOf = (schema: JsonSchema) =>
  (Array.isArray(schema.type) ? schema.type[0] : schema.type) as string | undefined;

/** The fields a person fills in: every property but a constant (a channel's `kind`). */
export function fieldsOf(schema: JsonSchema | undefined): [string, JsonSchema][] {
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
