// How a value of a result row is shown and exported: text as it is, numbers and booleans as written, null said so,
// objects (a body path that reached JSON) as compact JSON.
import { Code, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function cellText(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

export function ResultCell({ value }: { value: unknown }): ReactNode {
  if (value === null || value === undefined)
    return (
      <Text span size="sm" c="dimmed">
        null
      </Text>
    );
  // React renders no boolean: the text is always a string here.
  const text = String(cellText(value));
  if (typeof value === 'object') return <Code>{text}</Code>;
  // Short values (ids, times, names) stay on one line; long text wraps.
  return (
    <Text span size="sm" style={text.length > 40 ? { wordBreak: 'break-word' } : { whiteSpace: 'nowrap' }}>
      {text}
    </Text>
  );
}

/** A sortable value of a cell: numbers as numbers, everything else as its text. */
export function sortValueOf(value: unknown): string | number {
  if (typeof value === 'number') return value;
  const text = cellText(value);
  return text === null ? '' : String(text);
}
