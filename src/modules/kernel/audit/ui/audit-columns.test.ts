import { describe, expect, it } from 'vitest';
import { changeOf, outcomeLabel } from './audit-columns.tsx';

describe('the audit log change column', () => {
  it('reads a recorded from/to as old → new, whatever the values are', () => {
    expect(changeOf({ from: '365d', to: '30d' })).toEqual({ from: '365d', to: '30d' });
    expect(changeOf({ from: 5, to: { a: 1 } })).toEqual({ from: '5', to: '{"a":1}' });
  });

  it('shows nothing for a row without both', () => {
    expect(changeOf({ from: '1h' })).toBeUndefined();
    expect(changeOf(null)).toBeUndefined();
    expect(changeOf({ changed: ['name'] })).toBeUndefined();
  });
});

describe('the audit log outcome column', () => {
  it('shows how many refusals a denied row stands for', () => {
    expect(outcomeLabel({ outcome: 'DENIED', count: 12 })).toBe('denied ×12');
    expect(outcomeLabel({ outcome: 'DENIED', count: 1 })).toBe('denied');
    expect(outcomeLabel({ outcome: 'SUCCEEDED', count: 1 })).toBe('succeeded');
  });
});
