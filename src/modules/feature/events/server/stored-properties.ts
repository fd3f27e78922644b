// A broker event's properties between their typed form (name → { type, value }, as stored and shown) and the plain
// values the content policy reads, and back: a value the policy changed becomes a string, a dropped one (a
// credential) is gone. The event's user travels with them under `_user` so the policy sees it too.
// The writer stores every property typed, but a row written outside Flotilla may hold anything: the policy fails
// closed on it. A property not in the typed form is governed as the text it holds (a bare card number is masked like
// any string) and shown as a string; properties that are no object at all are withheld.
import type { BrokerEventView } from './events.schema.ts';

type TypedProperties = BrokerEventView['properties'];
type TypedProperty = TypedProperties[string];

export const USER_KEY = '_user';

function isTyped(property: unknown): property is TypedProperty {
  return (
    typeof property === 'object' &&
    property !== null &&
    typeof (property as { type?: unknown }).type === 'string' &&
    'value' in property
  );
}

/** What the policy reads of a property: a typed one's value, anything else as its text. */
function plainValue(property: unknown): unknown {
  if (isTyped(property)) return property.value;
  return typeof property === 'string' ? property : JSON.stringify(property);
}

/** The properties as name → stored property; a column that is no object (a row written by hand) holds none. */
function entriesOf(properties: TypedProperties): [string, unknown][] {
  const stored: unknown = properties;
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return [];
  return Object.entries(stored);
}

export function plainValues(properties: TypedProperties, user?: string | null): Record<string, unknown> {
  return {
    ...Object.fromEntries(entriesOf(properties).map(([name, property]) => [name, plainValue(property)])),
    ...(user === null || user === undefined ? {} : { [USER_KEY]: user }),
  };
}

export function typedFromGoverned(
  properties: TypedProperties,
  values: Readonly<Record<string, unknown>>,
): TypedProperties {
  const typed: TypedProperties = {};
  for (const [name, original] of entriesOf(properties)) {
    if (!(name in values)) continue; // dropped: a credential
    const value = values[name];
    // Only a typed property the policy left alone is shown as stored; anything else as the string it governed.
    typed[name] = isTyped(original) && value === original.value ? original : { type: 'string', value };
  }
  return typed;
}
