// The request-filter chain's one entry point, shared by the REST and tRPC edges: request id, source IP, and the
// principal from a bearer token or the session cookie.
import { ANONYMOUS, createRequestContext, isSecure, type RequestContext } from '@/modules/kernel/core/index.ts';
import { loadEffectiveGrants, resolvePrincipal } from '@/modules/kernel/security/index.ts';
import { type EffectiveGrant, globalPermissions, type TrpcContext } from '@/modules/kernel/access/index.ts';
import { addLogContext } from '@/base/log/log.ts';
import type { WebRuntime } from '../runtime/web-runtime.ts';

export async function createTrpcContext(
  runtime: WebRuntime,
  request: Request,
  base: RequestContext = createRequestContext(request.headers),
): Promise<TrpcContext> {
  const { principal, refusal } = await resolvePrincipal(
    { prisma: runtime.prisma, registry: runtime.registry, settings: runtime.settings, request: base },
    request.headers,
  );
  if (principal) addLogContext({ principal: principal.actor.name });
  let grants: Promise<readonly EffectiveGrant[]> | undefined;
  let permissions: Promise<ReadonlySet<string>> | undefined;
  const loadGrants = () => {
    const userId = principal?.actor.userId;
    grants ??= userId ? loadEffectiveGrants(runtime.prisma, userId) : Promise.resolve([]);
    return grants;
  };
  return {
    runtime,
    request: { ...base, actor: principal?.actor ?? ANONYMOUS },
    http: { headers: request.headers, secure: isSecure(request) },
    responseHeaders: new Headers(),
    principal,
    ...(refusal ? { refusal } : {}),
    grants: loadGrants,
    globalPermissions: () => {
      permissions ??= loadGrants().then(globalPermissions);
      return permissions;
    },
  };
}
