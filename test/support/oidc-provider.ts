// A real OpenID provider on loopback for sign-in tests (the `oidc-provider` package, the certified
// implementation): authorization code flow with PKCE, signed ID tokens, discovery. Its development login page
// accepts any login (the login becomes the subject) and asks for consent once; the claims it vouches for,
// groups included, are whatever the test set for that login, read at each token issue.
import http from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from './app-process.ts';

export interface TestOidcProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The groups the provider puts in `login`'s next ID token. */
  setGroups(login: string, groups: readonly string[]): void;
  close(): Promise<void>;
}

export async function startOidcProvider(options: { redirectUris: readonly string[] }): Promise<TestOidcProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'flotilla-test';
  const clientSecret = `test-secret-${port}-0123456789abcdef`;
  const groups = new Map<string, readonly string[]>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [...options.redirectUris],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    scopes: ['openid', 'profile', 'email', 'groups'],
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email'], groups: ['groups'] },
    // Scope claims in the ID token itself (the code flow would otherwise leave them to the userinfo endpoint).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    findAccount: (_context: unknown, login: string) => ({
      accountId: login,
      claims: () => ({
        sub: login,
        preferred_username: login,
        name: `Test ${login}`,
        email: `${login}@example.test`,
        groups: [...(groups.get(login) ?? [])],
      }),
    }),
  });
  const server = http.createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    issuer,
    clientId,
    clientSecret,
    setGroups: (login, list) => groups.set(login, list),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
