// Completion in the SQL editor: after FROM the cluster's address names, after `properties.` (or `properties['`) the
// property keys the index has seen, elsewhere the headers and `properties.<key>` columns. The SQL keywords come from
// @codemirror/lang-sql's own source beside this one.
import type { Completion, CompletionContext, CompletionResult, CompletionSource } from '@codemirror/autocomplete';

/** The grammar's header columns (docs/sql.md); properties and body are written properties.key and body->'path'. */
const HEADER_COLUMNS = [
  'id',
  'address',
  'queue',
  'node',
  'time',
  'priority',
  'durable',
  'expiration',
  'correlation_id',
  'reply_to',
  'body',
] as const;

export interface CompletionNames {
  readonly addresses: readonly string[];
  readonly propertyKeys: readonly string[];
}

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** An address as FROM takes it: bare when it is one plain word, in double quotes otherwise (`"orders.eu"`). */
const fromName = (address: string) => (PLAIN_NAME.test(address) ? address : `"${address.replaceAll('"', '""')}"`);
/** A property column: properties.key, or properties['key'] when the key is no plain word. */
const propertyColumn = (key: string) =>
  PLAIN_NAME.test(key) ? `properties.${key}` : `properties['${key.replaceAll("'", "''")}']`;

function addressCompletions(context: CompletionContext, names: CompletionNames): CompletionResult | null {
  // The word being typed after FROM, quoted or not: `FROM ord`, `FROM "orders.e`.
  const before = context.matchBefore(/\bfrom\s+("?[^\s"]*)$/i);
  if (!before) return null;
  const word = /("?[^\s"]*)$/.exec(before.text)?.[1] ?? '';
  return {
    from: before.to - word.length,
    options: names.addresses.map<Completion>((address) => ({
      label: fromName(address),
      displayLabel: address,
      type: 'class',
      detail: 'address',
    })),
    validFor: /^"?[^\s"]*$/,
  };
}

function propertyKeyCompletions(context: CompletionContext, names: CompletionNames): CompletionResult | null {
  const bracket = context.matchBefore(/\bproperties\['[^']*$/i);
  if (bracket) {
    const typed = bracket.text.slice(bracket.text.indexOf("['") + 2);
    return {
      from: bracket.to - typed.length,
      options: names.propertyKeys.map((key) => ({ label: key.replaceAll("'", "''"), type: 'property' })),
      validFor: /^[^']*$/,
    };
  }
  const dotted = context.matchBefore(/\bproperties\.\w*$/i);
  if (!dotted) return null;
  const typed = dotted.text.slice(dotted.text.indexOf('.') + 1);
  return {
    // A key that is no plain word replaces `.key` with `['key']`.
    from: dotted.to - typed.length - 1,
    options: names.propertyKeys.map((key) => ({
      label: PLAIN_NAME.test(key) ? `.${key}` : `['${key.replaceAll("'", "''")}']`,
      displayLabel: key,
      type: 'property',
    })),
    validFor: /^\.?\w*$/,
  };
}

function columnCompletions(context: CompletionContext, names: CompletionNames): CompletionResult | null {
  const word = context.matchBefore(/\w+$/);
  if (!word && !context.explicit) return null;
  return {
    from: word?.from ?? context.pos,
    options: [
      ...HEADER_COLUMNS.map<Completion>((name) => ({ label: name, type: 'variable', detail: 'header' })),
      ...names.propertyKeys.map<Completion>((key) => ({ label: propertyColumn(key), type: 'property' })),
    ],
    validFor: /^\w*$/,
  };
}

/** One completion source over the names of the cluster, read from the editor's state at each request. */
export function fleetCompletions(namesOf: (context: CompletionContext) => CompletionNames): CompletionSource {
  return (context) => {
    const names = namesOf(context);
    return (
      addressCompletions(context, names) ?? propertyKeyCompletions(context, names) ?? columnCompletions(context, names)
    );
  };
}
