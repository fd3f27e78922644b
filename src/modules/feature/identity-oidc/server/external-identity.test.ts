import { describe, expect, it } from 'vitest';
import { externalIdentityOf, usernameCandidates } from './external-identity.ts';

const provider = { id: 'corp', groupsClaim: 'groups', usernameClaim: 'preferred_username' };

describe('externalIdentityOf', () => {
  it('reads subject, username, email, name and groups from the claims', () => {
    expect(
      externalIdentityOf(provider, {
        sub: 'u-1',
        preferred_username: 'alice',
        email: 'alice@example.com',
        name: 'Alice',
        groups: ['ops', 'dev', 'ops', 7],
      }),
    ).toEqual({
      providerId: 'corp',
      subject: 'u-1',
      username: 'alice',
      email: 'alice@example.com',
      displayName: 'Alice',
      groups: ['dev', 'ops'],
    });
  });

  it('falls back to the email, then the subject, for the username; a single group may be a string', () => {
    expect(externalIdentityOf(provider, { sub: 'u-2', email: 'b@example.com', groups: 'ops' })).toMatchObject({
      username: 'b@example.com',
      groups: ['ops'],
    });
    expect(externalIdentityOf(provider, { sub: 'u-3' })).toMatchObject({ username: 'u-3', groups: [] });
  });

  it('reads the configured claims', () => {
    const custom = { id: 'x', groupsClaim: 'roles', usernameClaim: 'upn' };
    expect(externalIdentityOf(custom, { sub: 's', upn: 'carol', roles: ['a'] })).toMatchObject({
      username: 'carol',
      groups: ['a'],
    });
  });

  it('is undefined without a subject', () => {
    expect(externalIdentityOf(provider, { preferred_username: 'alice' })).toBeUndefined();
  });
});

describe('usernameCandidates', () => {
  it('tries the name, then the name qualified by the provider, then numbered', () => {
    expect(usernameCandidates('admin', 'corp', 4)).toEqual(['admin', 'admin@corp', 'admin@corp-2', 'admin@corp-3']);
  });
});
