import { describe, expect, it } from 'vitest';
import { changeOf } from './audit-columns.tsx';

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
