// A broker event's properties between their typed form (name → { type, value }, as stored and shown) and the plain
// values the content policy reads, and back: a value the policy changed becomes a string, a dropped one (a
// credential) is gone. The event's user travels with them under `_user` so the policy sees it too.
import type { BrokerEventView } from './events.schema.ts';

type TypedProperties = BrokerEventView['properties'];

export const USER_KEY = '_user';

export function plainValues(properties: TypedProperties, user?: string | null): Record<string, unknown> {
  return {
    ...Object.fromEntries(Object.entries(properties).map(([name, typed]) => [name, typed.value])),
    ...(user === null || user === undefined ? {} : { [USER_KEY]: user }),
  };
}

export function typedFromGoverned(
  properties: TypedProperties,
  values: Readonly<Record<string, unknown>>,
): TypedProperties {
  const typed: TypedProperties = {};
  for (const [name, original] of Object.entries(properties)) {
    if (!(name in values)) continue; // dropped: a credential
    const value = values[name];
    typed[name] = value === original.value ? original : { type: 'string', value };
  }
  return typed;
}
