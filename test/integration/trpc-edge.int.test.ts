// The /api/trpc edge on a real runtime: a batch is refused however its separator is spelled (`,`, `%2C`, `%2c`)
// before any call runs, and every refusal (batch, body too large, forbidden characters, nesting, CSRF, bad input)
// answers problem+json with its HTTP status and the request id, as REST does, while the console's tRPC client
// still reads it as a tRPC error carrying the problem.
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '@/installation/app-router.ts';
import { createTrpcHandler } from '@/server/http/trpc-route.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, TEST_ADMIN, type AuthHeaders } from '@test/sign-in.ts';

let secured: SecuredRuntime;
let trpc: (request: Request) => Promise<Response>;
let admin: AuthHeaders;

beforeAll(async () => {
  secured = await openSecuredRuntime();
  trpc = createTrpcHandler(() => Promise.resolve(secured.runtime));
  admin = await signIn(secured.rest, 'http://127.0.0.1');
}, 60_000);

afterAll(async () => {
  await secured.close();
});

function post(path: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return trpc(
    new Request(`http://127.0.0.1/api/trpc/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    }),
  );
}

/** The answer is problem+json of this type and status, with the request id in the body and the header. */
async function expectProblem(response: Response, type: string, status: number): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toContain('application/problem+json');
  const body = (await response.json()) as {
    type?: string;
    status?: number;
    requestId?: string;
    error?: { data?: { problem?: { type?: string; requestId?: string } } };
  };
  expect(body).toMatchObject({ type, status });
  expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(response.headers.get('x-request-id')).toBe(body.requestId);
  expect(body.error?.data?.problem).toMatchObject({ type, requestId: body.requestId });
}

describe('/api/trpc batches', () => {
  it.each(['auth.login,auth.login', 'auth.login%2Cauth.login', 'auth.login%2cauth.login'])(
    'refuses %s before any password is checked',
    async (calls) => {
      const before = await secured.runtime.prisma.auditEvent.count({ where: { action: 'auth.sign-in' } });
      const input = JSON.stringify({ 0: { json: TEST_ADMIN }, 1: { json: TEST_ADMIN } });
      await expectProblem(await post(`${calls}?batch=1`, input), 'batch-refused', 400);
      expect(await secured.runtime.prisma.auditEvent.count({ where: { action: 'auth.sign-in' } })).toBe(before);
    },
  );
});

describe('/api/trpc refusals', () => {
  it('answer a body over the anonymous limit with 413', async () => {
    await expectProblem(
      await post('security.auth.login', JSON.stringify({ username: 'x'.repeat(70_000) })),
      'payload-too-large',
      413,
    );
  });

  it('answer forbidden characters and deep nesting with 400', async () => {
    await expectProblem(
      await post('security.auth.login', JSON.stringify({ username: 'a\u0000b', password: 'x' })),
      'invalid-characters',
      400,
    );
    await expectProblem(
      await post('security.auth.login', `{"username":${'['.repeat(100)}${']'.repeat(100)}}`),
      'too-deeply-nested',
      400,
    );
    const query = encodeURIComponent(JSON.stringify({ q: 'x\u202Ey' }));
    await expectProblem(
      await trpc(new Request(`http://127.0.0.1/api/trpc/security.users.list?input=${query}`, { headers: admin })),
      'invalid-characters',
      400,
    );
  });

  it('answer a change without the CSRF token with 403, and bad input with 400', async () => {
    const body = JSON.stringify({ key: 'audit.retention', value: '30d' });
    await expectProblem(await post('settings.update', body, { cookie: admin.cookie }), 'csrf-token-missing', 403);
    await expectProblem(
      await post('settings.update', JSON.stringify({ key: 'audit.retention', value: '30d', dryRun: 'no' }), admin),
      'validation-failed',
      400,
    );
  });

  it('reach the console’s tRPC client as tRPC errors carrying the problem', async () => {
    const client = createTRPCClient<AppRouter>({
      links: [httpLink({ url: 'http://127.0.0.1/api/trpc', fetch: (input, init) => trpc(new Request(input, init)) })],
    });
    const failure = await client.security.auth.login
      .mutate({ username: 'a\u0000b', password: 'x' })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TRPCClientError);
    expect((failure as TRPCClientError<AppRouter>).data).toMatchObject({
      httpStatus: 400,
      problem: { type: 'invalid-characters' },
    });
  });
});
