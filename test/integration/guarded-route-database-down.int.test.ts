// The guarded edge (the plugin gateway's route files) with its database gone: resolving the caller fails, and the
// answer is a 503 to retry, as on the REST and tRPC edges, never a 500 (found by the database chaos test's review).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedRoute } from '@/server/http/guarded-route.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import type { AuthHeaders } from '@test/sign-in.ts';

let secured: SecuredRuntime;
let auth: AuthHeaders;

beforeAll(async () => {
  secured = await openSecuredRuntime();
  ({ auth } = await secured.signedIn());
}, 60_000);

afterAll(async () => {
  await secured.close().catch(() => undefined); // its pool is already ended
});

describe('the guarded edge without its database', () => {
  it('answers 503 service-unavailable when it cannot resolve the caller', async () => {
    let reached = false;
    const route = guardedRoute(
      () => {
        reached = true;
        return Promise.resolve(new Response('{}'));
      },
      () => Promise.resolve(secured.runtime),
    );
    const url = 'http://127.0.0.1/api/v1/p/anything/here';
    expect((await route(new Request(url, { headers: auth }))).status).not.toBe(503);
    await secured.runtime.db.pool.end();
    const answer = await route(new Request(url, { headers: auth }));
    expect(answer.status).toBe(503);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(await answer.json()).toMatchObject({ type: 'service-unavailable' });
    expect(reached).toBe(true); // only the first call, while the database was there
  });
});
