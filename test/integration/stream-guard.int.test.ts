// The stream's edge on a real runtime and database: the cluster guard and the subscription read one parsed query,
// so a parameter given twice is refused (400, nothing subscribed) whatever the scopes and their order; and a user
// holds at most `stream.max-per-user` open streams (429 `stream-limit` beyond).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTALLATION_SCOPE_ID } from '@/modules/kernel/stream/index.ts';
import { hashPassword } from '@/modules/kernel/security/server/passwords.ts';
import { createStreamHandler } from '@/server/http/stream-route.ts';
import { insertClusterRow } from '@test/cluster-rows.ts';
import { callRest } from '@test/rest-call.ts';
import { openSecuredRuntime, type SecuredRuntime } from '@test/secured-runtime.ts';
import { signIn, type AuthHeaders } from '@test/sign-in.ts';

let secured: SecuredRuntime;
let stream: (request: Request) => Promise<Response>;
let viewer: AuthHeaders;
let admin: AuthHeaders;
const granted = randomUUID();
const ungranted = randomUUID();
const SCOPES = {
  'the installation scope': INSTALLATION_SCOPE_ID,
  'a granted cluster': granted,
  'an ungranted cluster': ungranted,
};

const open = (query: string, headers: AuthHeaders, signal?: AbortSignal) =>
  stream(new Request(`http://127.0.0.1/api/v1/stream?${query}`, { headers, signal }));

beforeAll(async () => {
  secured = await openSecuredRuntime();
  stream = createStreamHandler(() => Promise.resolve(secured.runtime));
  const { prisma } = secured.runtime;
  await insertClusterRow(prisma, { id: granted, name: 'granted' });
  await insertClusterRow(prisma, { id: ungranted, name: 'ungranted' });
  const userId = randomUUID();
  const password = `stream-guard-${randomUUID()}`;
  await prisma.user.create({
    data: { id: userId, username: 'stream-viewer', providerId: 'local', passwordHash: await hashPassword(password) },
  });
  const role = await prisma.role.findUniqueOrThrow({ where: { name: 'viewer' } });
  await prisma.grant.create({
    data: { id: randomUUID(), roleId: role.id, principal: 'USER', userId, scopeKind: 'CLUSTER', scopeId: granted },
  });
  viewer = await signIn(secured.rest, 'http://127.0.0.1', { username: 'stream-viewer', password });
  admin = await signIn(secured.rest, 'http://127.0.0.1');
}, 60_000);

afterAll(async () => {
  await secured.close();
});

describe('GET /api/v1/stream, one value per parameter', () => {
  it('opens a stream for the installation scope and a granted cluster, and hides an ungranted one', async () => {
    for (const scope of [INSTALLATION_SCOPE_ID, granted]) {
      const controller = new AbortController();
      const response = await open(`clusterId=${scope}&topics=health`, viewer, controller.signal);
      expect(response.status).toBe(200);
      expect(secured.runtime.stream.size).toBe(1);
      controller.abort();
      await response.body?.cancel();
    }
    expect((await open(`clusterId=${ungranted}&topics=health`, viewer)).status).toBe(404);
    expect(secured.runtime.stream.size).toBe(0);
  });

  const pairs = Object.entries(SCOPES).flatMap(([firstName, first]) =>
    Object.entries(SCOPES).map(([secondName, second]) => ({ name: `${firstName}, then ${secondName}`, first, second })),
  );

  it.each(pairs)('refuses clusterId twice ($name) with 400 and subscribes nothing', async ({ first, second }) => {
    const response = await open(`clusterId=${first}&topics=health,alerts&clusterId=${second}`, viewer);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await response.json()) as { type: string; errors: unknown; requestId?: string };
    expect(problem).toMatchObject({ type: 'validation-failed', errors: [{ field: 'clusterId' }] });
    expect(problem.requestId).toBeTruthy();
    expect(secured.runtime.stream.size).toBe(0);
  });

  it.each(Object.entries(SCOPES))('refuses topics twice for %s, in both orders, with 400', async (_name, scope) => {
    for (const query of [
      `clusterId=${scope}&topics=health&topics=alerts`,
      `topics=alerts&clusterId=${scope}&topics=health`,
    ]) {
      const response = await open(query, viewer);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ type: 'validation-failed', errors: [{ field: 'topics' }] });
      expect(secured.runtime.stream.size).toBe(0);
    }
  });
});

describe('stream.max-per-user', () => {
  it('refuses one stream more than the setting with 429 stream-limit, and counts each user alone', async () => {
    expect((await callRest(secured.rest, admin, 'PUT', '/settings/stream.max-per-user', { value: 2 })).status).toBe(
      200,
    );
    const controllers = [new AbortController(), new AbortController()];
    const held = await Promise.all(
      controllers.map((controller) => open(`clusterId=${granted}&topics=health`, viewer, controller.signal)),
    );
    expect(held.map((response) => response.status)).toEqual([200, 200]);

    const refused = await open(`clusterId=${INSTALLATION_SCOPE_ID}&topics=health`, viewer);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ type: 'stream-limit', status: 429, limit: 2 });
    expect(secured.runtime.stream.size).toBe(2);

    // Another user is not held to this one's streams.
    const adminController = new AbortController();
    const adminStream = await open(`clusterId=${INSTALLATION_SCOPE_ID}&topics=health`, admin, adminController.signal);
    expect(adminStream.status).toBe(200);

    // Closing one makes room again.
    controllers[0]?.abort();
    await held[0]?.body?.cancel();
    const again = await open(`clusterId=${granted}&topics=health`, viewer);
    expect(again.status).toBe(200);
    for (const response of [again, held[1], adminStream]) await response?.body?.cancel();
  });
});
