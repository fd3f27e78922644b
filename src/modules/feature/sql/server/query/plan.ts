// The SQL console's query, parsed: the one shape every source (a live broker read, the message index, a live tail)
// answers. The grammar (parse.ts) turns text into a QueryPlan; pushdown.ts splits its WHERE into what the broker's
// filter syntax can express and what the service evaluates (evaluate.ts); the index reader turns it into SQL.

/** Fields every message row has, whichever source it came from (docs/sql.md lists their SQL names). */
export const HEADER_FIELDS = [
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
] as const;
export type HeaderName = (typeof HEADER_FIELDS)[number];

export type Field =
  | { readonly kind: 'header'; readonly name: HeaderName }
  /** An application property by its exact key. */
  | { readonly kind: 'property'; readonly key: string }
  /** A path into a JSON body; [] is the whole body. */
  | { readonly kind: 'body'; readonly path: readonly string[] };

/** A literal; times are ISO-8601 strings once parsed (`now() - interval '1 hour'` is resolved at parse time). */
export type Value = string | number | boolean | null;

export type Comparison = '=' | '<>' | '<' | '<=' | '>' | '>=';

export type Predicate =
  | { readonly op: 'and' | 'or'; readonly args: readonly Predicate[] }
  | { readonly op: 'not'; readonly arg: Predicate }
  | { readonly op: 'compare'; readonly comparison: Comparison; readonly field: Field; readonly value: Value }
  | { readonly op: 'in'; readonly field: Field; readonly values: readonly Value[]; readonly negated: boolean }
  | {
      readonly op: 'like';
      readonly field: Field;
      readonly pattern: string;
      readonly escape?: string;
      readonly negated: boolean;
    }
  | {
      readonly op: 'between';
      readonly field: Field;
      readonly low: Value;
      readonly high: Value;
      readonly negated: boolean;
    }
  | { readonly op: 'isNull'; readonly field: Field; readonly negated: boolean };

export interface Column {
  readonly field: Field;
  /** The result's column name: the alias, or the field as written. */
  readonly name: string;
}

export interface QueryPlan {
  /** The FROM: an address name or an Artemis wildcard pattern (`orders.*`, `orders.#`). */
  readonly addressPattern: string;
  /** `SELECT *` is every header column, then `properties` and `body`. */
  readonly columns: readonly Column[] | '*';
  readonly where: Predicate | null;
  readonly orderBy: ReadonlyArray<{ readonly field: Field; readonly direction: 'asc' | 'desc' }>;
  /** LIMIT as written; the row cap still applies and is reported when it is the one reached. */
  readonly limit: number | null;
}
