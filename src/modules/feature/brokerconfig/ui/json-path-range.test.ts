import { describe, expect, it } from 'vitest';
import { rangeOfPath } from './json-path-range.ts';

const text = JSON.stringify(
  { addressSettings: [{ match: '#', settings: { maxDeliveryAttempts: 'x', deadLetterAddress: 'DLQ' } }], queues: [] },
  null,
  2,
);
const marked = (path: string) => {
  const range = rangeOfPath(text, path);
  return range ? text.slice(range.from, range.to) : undefined;
};

describe('rangeOfPath', () => {
  it('finds a field by its path through objects and arrays', () => {
    expect(marked('addressSettings.0.settings.maxDeliveryAttempts')).toBe('"x"');
    expect(marked('addressSettings.0.match')).toBe('"#"');
    expect(marked('queues')).toBe('[]');
  });

  it('marks the nearest enclosing value (its first line) when the field is absent', () => {
    expect(marked('addressSettings.0.settings.expiryAddress')).toBe('{');
    expect(marked('diverts.0.name')).toBe('{');
  });

  it('answers nothing for an empty text', () => {
    expect(rangeOfPath('  ', 'queues')).toBeUndefined();
  });
});
