import { describe, expect, it } from 'vitest';
import { isDatabaseBusy, isDatabaseFull } from './database-busy.ts';

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

describe('isDatabaseFull', () => {
  it('knows PostgreSQL’s disk_full from pg, from Prisma’s driver adapter and by the server’s message', () => {
    const server = 'could not extend file "base/16385/16388": No space left on device';
    expect(isDatabaseFull(withCode(server, '53100'))).toBe(true);
    const adapter = Object.assign(new Error('postgres'), { originalCode: '53100' });
    expect(isDatabaseFull(new Error('Invalid `prisma.auditEvent.create()` invocation', { cause: adapter }))).toBe(true);
    expect(isDatabaseFull(new Error(`Error occurred during query execution: ${server}`))).toBe(true);
  });

  it('is not a busy database, nor any other error', () => {
    expect(isDatabaseBusy(withCode('could not extend file: No space left on device', '53100'))).toBe(false);
    expect(isDatabaseFull(withCode('Timed out fetching a new connection from the connection pool.', 'P2024'))).toBe(
      false,
    );
    expect(isDatabaseFull(withCode('Unique constraint failed on the fields: (`name`)', 'P2002'))).toBe(false);
    expect(isDatabaseFull(undefined)).toBe(false);
  });
});
