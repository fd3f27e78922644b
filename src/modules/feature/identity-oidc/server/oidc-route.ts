// The OIDC sign-in's two browser steps, under /api/v1/auth/oidc: `GET signin/<provider>?next=` sends the browser
// to the provider; `GET callback/<provider>` comes back from it. next-auth runs the redirect dance (state, PKCE,
// nonce) and validates the ID token; then Flotilla's own sign-in takes over exactly as for a password: throttle by
// username and source, just-in-time account, disabled accounts refused, the attempt audited, the session cookies.
// Any failure goes back to /sign-in?error=<problem type>.
import { skipCSRFCheck } from '@auth/core';
import type { NextAuthConfig } from 'next-auth';
import NextAuth from 'next-auth';
import {
  createRequestContext,
  featureDisabledProblem,
  isSecure,
  notFoundProblem,
  ProblemError,
  problemResponse,
  type RequestContext,
} from '@/modules/kernel/core/index.ts';
import {
  completeSignIn,
  failSignIn,
  refuseWhileThrottled,
  sessionCookies,
  type SignInAttempt,
  type SignInDependencies,
  enabledSignInProviders,
} from '@/modules/kernel/security/index.ts';
import { externalIdentityOf } from './external-identity.ts';
import { configuredOidcProviders, OIDC_BASE_PATH, type OidcProviderConfig } from './oidc-config.ts';
import { oidcCookieSecret } from './oidc-secret.ts';
import { provisionExternalUser } from './provisioning.ts';
import { safeNextPath } from '@/base/next-path.ts';
import { asAddressed } from './request-origin.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('identity-oidc');

const STEP = new RegExp(`^${OIDC_BASE_PATH}/(signin|callback)/([^/]+)$`);

function backToSignIn(request: Request, error: string, next = '/'): Response {
  const target = new URL('/sign-in', request.url);
  target.searchParams.set('error', error);
  if (next !== '/') target.searchParams.set('next', next);
  return new Response(null, { status: 303, headers: { Location: `${target.pathname}${target.search}` } });
}

/** A next-auth instance for one request, whose signIn callback hands the validated claims back. */
async function nextAuthFor(
  dependencies: SignInDependencies,
  request: Request,
  provider: OidcProviderConfig,
  onClaims: (claims: Record<string, unknown>) => void = () => undefined,
) {
  const config: NextAuthConfig = {
    basePath: OIDC_BASE_PATH,
    trustHost: true,
    secret: await oidcCookieSecret(dependencies.prisma),
    useSecureCookies: isSecure(request),
    // The start is a plain link; state, PKCE and nonce protect the callback.
    skipCSRFCheck,
    session: { strategy: 'jwt' },
    pages: { signIn: '/sign-in', error: '/sign-in' },
    providers: [
      {
        id: provider.id,
        name: provider.label,
        type: 'oidc',
        issuer: provider.issuer,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        checks: ['pkce', 'state', 'nonce'],
        authorization: { params: { scope: provider.scopes.join(' ') } },
      },
    ],
    callbacks: {
      signIn: ({ profile }) => {
        onClaims({ ...(profile ?? {}) });
        return true;
      },
    },
    // Names and messages only: next-auth's metadata may carry tokens.
    logger: {
      error: (error) => log.warn({ provider: provider.id }, `${error.name}: ${error.message}`),
      warn: (code) => log.warn({ provider: provider.id }, code),
      debug: () => undefined,
    },
  };
  return NextAuth(config).handlers;
}

async function start(
  dependencies: SignInDependencies,
  request: Request,
  context: RequestContext,
  provider: OidcProviderConfig,
) {
  const next = safeNextPath(new URL(request.url).searchParams.get('next'));
  await refuseWhileThrottled(dependencies, context, { username: '', providerId: provider.id, userAgent: null });
  const handlers = await nextAuthFor(dependencies, request, provider);
  const signInUrl = new URL(`${OIDC_BASE_PATH}/signin/${provider.id}`, request.url);
  return handlers.POST(
    // next-auth starts an OAuth sign-in on POST; the browser's GET is turned into one here.
    new Request(signInUrl, {
      method: 'POST',
      headers: {
        cookie: request.headers.get('cookie') ?? '',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ callbackUrl: next }),
    }) as never,
  );
}

async function callback(
  dependencies: SignInDependencies,
  request: Request,
  context: RequestContext,
  provider: OidcProviderConfig,
) {
  const unnamed: SignInAttempt = {
    username: '',
    providerId: provider.id,
    userAgent: request.headers.get('user-agent'),
  };
  await refuseWhileThrottled(dependencies, context, unnamed);
  let claims: Record<string, unknown> | undefined;
  const handlers = await nextAuthFor(dependencies, request, provider, (received) => (claims = received));
  const answer = await handlers.GET(request as never);
  const identity = claims ? externalIdentityOf(provider, claims) : undefined;
  // Bad state, an error from the provider, an invalid token: a failed sign-in that named nobody.
  if (!identity) return failSignIn(dependencies, context, unnamed);
  const attempt: SignInAttempt = { ...unnamed, username: identity.username };
  await refuseWhileThrottled(dependencies, context, attempt);
  const result = await completeSignIn(
    dependencies,
    context,
    attempt,
    await provisionExternalUser(dependencies.prisma, identity),
  );
  // next-auth answers with the callbackUrl it was given at the start (already a safe path); it is followed only when
  // it still names this origin, and then checked again like any `next`.
  const location = answer.headers.get('location');
  const target = location ? new URL(location, request.url) : undefined;
  const sameOrigin = target?.origin === new URL(request.url).origin;
  const next = target && sameOrigin ? safeNextPath(`${target.pathname}${target.search}${target.hash}`) : '/';
  const headers = new Headers({ Location: result.user.mustChangePassword ? '/change-password' : next });
  // next-auth's own cookies are cleared or dropped: the state/PKCE/nonce ones it expires stay expired, and its
  // session cookie is never set; Flotilla's session is the only one.
  for (const cookie of answer.headers.getSetCookie())
    if (/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(cookie)) headers.append('Set-Cookie', cookie);
  for (const cookie of sessionCookies(result.session, isSecure(request))) headers.append('Set-Cookie', cookie);
  return new Response(null, { status: 303, headers });
}

/** The route handler's body; `getRuntime` is the web runtime (bound by the route file). */
export function createOidcHandler(getRuntime: () => Promise<SignInDependencies>) {
  return async (received: Request): Promise<Response> => {
    const request = asAddressed(received);
    const context = createRequestContext(request.headers);
    const url = new URL(request.url);
    const runtime = await getRuntime();
    const owner = runtime.registry.ownerOfPath(url.pathname);
    if (owner && !owner.enabled)
      return problemResponse({
        ...featureDisabledProblem(owner),
        instance: url.pathname,
        requestId: context.requestId,
      });
    const step = STEP.exec(url.pathname);
    if (!step) return problemResponse({ ...notFoundProblem('No such OIDC step.'), instance: url.pathname });
    const [, action, providerId] = step;
    const enabled = enabledSignInProviders(runtime.registry).some(
      (entry) => entry.kind === 'redirect' && entry.id === providerId,
    );
    const provider = enabled ? configuredOidcProviders().find((entry) => entry.id === providerId) : undefined;
    const next = safeNextPath(url.searchParams.get('next'));
    try {
      if (!provider) {
        // An unknown or unconfigured provider fails like any other sign-in (counted, audited) at the callback.
        if (action === 'callback')
          await failSignIn(runtime, context, { username: '', providerId: providerId ?? '', userAgent: null });
        return backToSignIn(request, 'sign-in-failed', next);
      }
      return action === 'signin'
        ? await start(runtime, request, context, provider)
        : await callback(runtime, request, context, provider);
    } catch (error) {
      if (error instanceof ProblemError) return backToSignIn(request, error.problem.type, next);
      log.error({ err: error, requestId: context.requestId, action, provider: providerId }, 'OIDC request failed');
      return backToSignIn(request, 'internal-error', next);
    }
  };
}
