// The request-filter chain's one entry point, shared by the REST and tRPC edges: request id, source IP, and the
// principal from a bearer token or the session cookie.
import { ANONYMOUS, createRequestContext, type RequestContext } from '@/modules/kernel/core/request-context.ts';
import { loadEffectiveGrants } from '@/modules/kernel/security/server/effective-grants.ts';
import { globalPermissions, type EffectiveGrant } from '@/modules/kernel/security/server/grants.ts';
import { resolvePrincipal } from '@/modules/kernel/security/server/principal.ts';
import type { WebRuntime } from '../runtime/web-runtime.ts';
import type { TrpcContext } from '../trpc/init.ts';

export function isSecure(request: Request): boolean {
  return new URL(request.url).protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
}

export async function createTrpcContext(
  runtime: WebRuntime,
  request: Request,
  base: RequestContext = createRequestContext(request.headers),
): Promise<TrpcContext> {
  const principal = await resolvePrincipal(
    {
      prisma: runtime.prisma,
      registry: runtime.registry,
      sessionLifetimeMs: runtime.settings.duration('security.session-lifetime'),
    },
    request.headers,
  );
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
    grants: loadGrants,
    globalPermissions: () => {
      permissions ??= loadGrants().then(globalPermissions);
      return permissions;
    },
  };
}
