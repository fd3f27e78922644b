import { describe, expect, it } from 'vitest';
import { checkAccess, type AccessCheck } from './access.ts';
import type { Principal } from './principal.ts';

const session: Principal = {
  actor: { name: 'ada', userId: 'u1' },
  via: 'session',
  csrfToken: 'csrf-1',
  mustChangePassword: false,
};
const bearer: Principal = {
  actor: { name: 'ada [token: ci]', userId: 'u1' },
  via: 'bearer',
  mustChangePassword: false,
};

function check(overrides: Partial<AccessCheck>): Promise<void> {
  return checkAccess({
    access: { permission: 'settings:write' },
    isMutation: false,
    principal: session,
    headers: new Headers({ host: 'flotilla.example:3000' }),
    allowedBeforePasswordChange: false,
    globalPermissions: () => Promise.resolve(new Set(['settings:read', 'settings:write'])),
    ...overrides,
  });
}

const problemOf = async (promise: Promise<void>) => {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { problem: { type: string; status: number; permission?: string } }).problem;
  }
};

describe('checkAccess', () => {
  it('lets anyone call a public procedure and refuses anonymous callers elsewhere with 401', async () => {
    expect(await problemOf(check({ access: 'public', principal: undefined }))).toBeUndefined();
    expect(await problemOf(check({ access: 'authenticated', principal: undefined }))).toMatchObject({
      type: 'unauthenticated',
      status: 401,
    });
  });

  it('names the missing permission with 403', async () => {
    const denied = await problemOf(check({ access: { permission: 'users:write' } }));
    expect(denied).toMatchObject({ type: 'forbidden', status: 403, permission: 'users:write' });
    expect(await problemOf(check({}))).toBeUndefined();
  });

  it('demands the CSRF token on cookie-authenticated changes only', async () => {
    expect(await problemOf(check({ isMutation: true }))).toMatchObject({ type: 'csrf-token-missing', status: 403 });
    const sent = (headers: Record<string, string>) => new Headers({ host: 'flotilla.example:3000', ...headers });
    expect(await problemOf(check({ isMutation: true, headers: sent({ 'x-csrf-token': 'wrong' }) }))).toMatchObject({
      type: 'csrf-token-missing',
    });
    expect(await problemOf(check({ isMutation: true, headers: sent({ 'x-csrf-token': 'csrf-1' }) }))).toBeUndefined();
    const here = sent({ 'x-csrf-token': 'csrf-1', origin: 'http://flotilla.example:3000' });
    expect(await problemOf(check({ isMutation: true, headers: here }))).toBeUndefined();
    expect(await problemOf(check({ isMutation: true, principal: bearer }))).toBeUndefined();
    expect(await problemOf(check({ isMutation: false }))).toBeUndefined();
  });

  it('refuses a cookie-made change from another site even with the right CSRF token', async () => {
    for (const origin of ['https://evil.example', 'http://flotilla.example:4000', 'null']) {
      const headers = new Headers({ host: 'flotilla.example:3000', 'x-csrf-token': 'csrf-1', origin });
      expect(await problemOf(check({ isMutation: true, headers }))).toMatchObject({
        type: 'foreign-origin',
        status: 403,
      });
      // A bearer caller is no browser: Origin does not matter there.
      expect(await problemOf(check({ isMutation: true, headers, principal: bearer }))).toBeUndefined();
    }
  });

  it('holds a user who must change their password to the few procedures that allow it, on every path', async () => {
    for (const principal of [
      { ...session, mustChangePassword: true },
      { ...bearer, mustChangePassword: true },
    ]) {
      expect(await problemOf(check({ principal, access: 'authenticated' }))).toMatchObject({
        type: 'password-change-required',
      });
      expect(
        await problemOf(check({ principal, access: 'authenticated', allowedBeforePasswordChange: true })),
      ).toBeUndefined();
    }
  });
});
