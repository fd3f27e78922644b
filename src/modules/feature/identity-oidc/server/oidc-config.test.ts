import { describe, expect, it } from 'vitest';
import { parseOidcProviders } from './oidc-config.ts';

const provider = { id: 'corp', issuer: 'https://id.example.com', clientId: 'flotilla', clientSecret: 's3cret-value' };

describe('parseOidcProviders', () => {
  it('is empty when unset', () => {
    expect(parseOidcProviders(undefined)).toEqual([]);
    expect(parseOidcProviders('  ')).toEqual([]);
  });

  it('fills the defaults and always asks for openid', () => {
    const [parsed] = parseOidcProviders(JSON.stringify([{ ...provider, scopes: ['email', 'groups'] }]));
    expect(parsed).toMatchObject({
      id: 'corp',
      label: 'corp',
      scopes: ['openid', 'email', 'groups'],
      groupsClaim: 'groups',
      usernameClaim: 'preferred_username',
    });
  });

  it('refuses bad JSON, bad ids, the reserved id local and repeated ids, without echoing secrets', () => {
    expect(() => parseOidcProviders('[{')).toThrow(/not valid JSON/);
    expect(() => parseOidcProviders(JSON.stringify([{ ...provider, id: 'Corp!' }]))).toThrow(/0\.id/);
    expect(() => parseOidcProviders(JSON.stringify([{ ...provider, id: 'local' }]))).toThrow(/reserved/);
    expect(() => parseOidcProviders(JSON.stringify([provider, provider]))).toThrow(/appears twice/);
    const missingIssuer = () => parseOidcProviders(JSON.stringify([{ ...provider, issuer: 'not a url' }]));
    expect(missingIssuer).toThrow(/0\.issuer/);
    expect(missingIssuer).not.toThrow(/s3cret-value/);
  });
});
