// Step-up re-authentication on a real database: a local account types its password again; an identity-provider
// account counts only a sign-in of the last five minutes (its session's age); a bearer caller is never asked.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/modules/kernel/access/index.ts';
import type { ProblemError } from '@/modules/kernel/core/index.ts';
import { createTestDatabase, type TestDatabase } from '@test/database.ts';
import { openDatabase, type Database } from '@/base/db/database.ts';
import { hashPassword } from './passwords.ts';
import { createSession, SESSION_COOKIE } from './sessions.ts';
import { requireStepUp } from './step-up.ts';

let database: TestDatabase;
let db: Database;

const principal = (userId: string, via: Principal['via'] = 'session'): Principal => ({
  actor: { userId, name: userId },
  via,
  mustChangePassword: false,
});

async function refusal(work: Promise<void>): Promise<string | undefined> {
  try {
    await work;
    return undefined;
  } catch (error) {
    return (error as ProblemError).problem.type;
  }
}

async function userOf(providerId: string, password?: string): Promise<string> {
  const id = randomUUID();
  await db.prisma.user.create({
    data: {
      id,
      username: `${providerId}-${id.slice(0, 8)}`,
      providerId,
      passwordHash: password ? await hashPassword(password) : null,
      ...(providerId === 'local' ? {} : { externalSubject: id }),
    },
  });
  return id;
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = openDatabase(database.url, { poolSize: 2, applicationName: 'step-up-test' });
});

afterAll(async () => {
  await db.close();
  await database.drop();
});

describe('step-up re-authentication', () => {
  it('asks a local account for its password again, and checks it', async () => {
    const userId = await userOf('local', 'step up passphrase 1');
    const headers = new Headers();
    expect(await refusal(requireStepUp(db.prisma, { principal: principal(userId), headers }))).toBe('step-up-required');
    expect(await refusal(requireStepUp(db.prisma, { principal: principal(userId), headers, password: 'wrong' }))).toBe(
      'step-up-failed',
    );
    expect(
      await refusal(
        requireStepUp(db.prisma, { principal: principal(userId), headers, password: 'step up passphrase 1' }),
      ),
    ).toBeUndefined();
  });

  it('counts only a fresh sign-in of an identity-provider account', async () => {
    const userId = await userOf('corp-oidc');
    const session = await createSession(db.prisma, { userId, lifetimeMs: 3_600_000, sourceIp: null, userAgent: null });
    const headers = new Headers({ cookie: `${SESSION_COOKIE}=${session.token}` });
    expect(await refusal(requireStepUp(db.prisma, { principal: principal(userId), headers }))).toBeUndefined();
    // A password does not stand in for the provider.
    const later = new Date(Date.now() + 6 * 60_000);
    expect(
      await refusal(requireStepUp(db.prisma, { principal: principal(userId), headers, password: 'x', now: later })),
    ).toBe('step-up-required');
  });

  it('never asks a bearer caller (an API token, an MCP agent): refused outright', async () => {
    const userId = await userOf('local', 'step up passphrase 2');
    expect(
      await refusal(
        requireStepUp(db.prisma, {
          principal: principal(userId, 'bearer'),
          headers: new Headers(),
          password: 'step up passphrase 2',
        }),
      ),
    ).toBe('step-up-impossible');
  });
});
