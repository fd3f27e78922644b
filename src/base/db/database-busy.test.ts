import { describe, expect, it } from 'vitest';
import { isDatabaseBusy } from './database-busy.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDatabaseBusy', () => {
  it('knows a full pool, a transaction that could not start and an unreachable server, also as a cause', () => {
    expect(
      isDatabaseBusy(withCode('Transaction API error: Unable to start a transaction in the given time.', 'P2028')),
    ).toBe(true);
    expect(isDatabaseBusy(withCode('Timed out fetching a new connection from the connection pool.', 'P2024'))).toBe(
      true,
    );
    expect(isDatabaseBusy(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseBusy(new Error('audit failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:5432') }))).toBe(
      true,
    );
  });

  it('leaves every other error to be what it is', () => {
    expect(isDatabaseBusy(withCode('Unique constraint failed on the fields: (`name`)', 'P2002'))).toBe(false);
    expect(isDatabaseBusy(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isDatabaseBusy('Unable to start a transaction in the given time')).toBe(false);
    expect(isDatabaseBusy(undefined)).toBe(false);
  });
});
