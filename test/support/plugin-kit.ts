// What the runtime-plugin integration files share: the REST edge beside the plugin gateway's route files, served
// in-process as Next.js serves them apart, and a signed-in local user holding one built-in role everywhere (or none).
import { randomUUID } from 'node:crypto';
import { handlePluginGateway } from '@/modules/feature/plugins/index.ts';
import { hashPassword } from '@/modules/kernel/security/index.ts';
import { guardedRoute } from '@/server/http/guarded-route.ts';
import { createRestHandler } from '@/server/http/rest.ts';
import type { WebRuntime } from '@/server/runtime/web-runtime.ts';
import { callRest, type RestCall } from './rest-call.ts';
import type { SecuredRuntime } from './secured-runtime.ts';
import { signIn } from './sign-in.ts';

const GATEWAY = /^\/api\/v1\/(clusters\/[^/]+\/)?p\//;

export function servingWithGateway(runtime: WebRuntime): (request: Request) => Promise<Response> {
  const rest = createRestHandler(() => Promise.resolve(runtime));
  const gateway = guardedRoute(handlePluginGateway, () => Promise.resolve(runtime));
  return (request) => (GATEWAY.test(new URL(request.url).pathname) ? gateway(request) : rest(request));
}

export async function userWithRole(
  secured: SecuredRuntime,
  send: (request: Request) => Promise<Response>,
  username: string,
  role: string | undefined,
): Promise<RestCall> {
  const userPassword = `${username} password 1`;
  const id = randomUUID();
  const { prisma } = secured.runtime;
  await prisma.user.create({
    data: { id, username, providerId: 'local', passwordHash: await hashPassword(userPassword) },
  });
  if (role) {
    const { id: roleId } = await prisma.role.findFirstOrThrow({ where: { name: role } });
    await prisma.grant.create({
      data: { id: randomUUID(), roleId, principal: 'USER', userId: id, scopeKind: 'GLOBAL' },
    });
  }
  const own = await signIn(secured.rest, 'http://127.0.0.1', { username, password: userPassword });
  return (method, route, body, headers) => callRest(send, own, method, route, body, { headers });
}
