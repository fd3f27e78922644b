// Signing in from tests, as the console does: the session cookie plus the CSRF token echoed in X-CSRF-Token.
export const TEST_ADMIN = { username: 'admin', password: 'test-console-passphrase-1' } as const;

/** The first admin every test app and test database starts with (see ensureFirstAdmin). */
export const TEST_ADMIN_ENV = {
  FLOTILLA_ADMIN_USERNAME: TEST_ADMIN.username,
  FLOTILLA_ADMIN_PASSWORD: TEST_ADMIN.password,
};

export type AuthHeaders = Record<'cookie' | 'x-csrf-token', string>;

/** Signs in through any fetch-like handler (the REST handler in-process, or global fetch against a server). */
export async function signIn(
  send: (request: Request) => Promise<Response>,
  baseUrl: string,
  credentials: { username: string; password: string } = TEST_ADMIN,
): Promise<AuthHeaders> {
  const attempt = () =>
    send(
      new Request(`${baseUrl}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(credentials),
      }),
    );
  let response = await attempt();
  // A 503 says "try again shortly" (the database busy on a loaded machine, as an app's first seconds can be): the
  // console's user would, so the test does, twice at most, after the wait the answer asks for.
  for (let retries = 0; response.status === 503 && retries < 2; retries += 1) {
    const waitSeconds = Number(response.headers.get('retry-after') ?? '1') || 1;
    await new Promise((resolve) => setTimeout(resolve, Math.min(waitSeconds, 5) * 1_000));
    response = await attempt();
  }
  if (response.status !== 200)
    throw new Error(`sign-in as ${credentials.username} failed: ${response.status} ${await response.text()}`);
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '');
  const csrf = cookies.find((cookie) => cookie.startsWith('flotilla_csrf='))?.slice('flotilla_csrf='.length) ?? '';
  return { cookie: cookies.join('; '), 'x-csrf-token': csrf };
}
