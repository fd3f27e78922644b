// The request-filter chain's one entry point, shared by the REST and tRPC edges: request id, source IP, and the
// principal from the session cookie (bearer tokens come with the apitokens module).
import { ANONYMOUS, createRequestContext, type RequestContext } from '@/modules/kernel/core/request-context.ts';
import { resolveSession, SESSION_COOKIE, readCookie } from '@/modules/kernel/security/server/sessions.ts';
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
  const token = readCookie(request.headers, SESSION_COOKIE);
  const session = token
    ? await resolveSession(runtime.prisma, token, runtime.settings.duration('security.session-lifetime'))
    : undefined;
  return {
    runtime,
    request: { ...base, actor: session ? { name: session.username, userId: session.userId } : ANONYMOUS },
    http: { headers: request.headers, secure: isSecure(request) },
    responseHeaders: new Headers(),
  };
}
