// The access rule every procedure declares, checked in one place for both edges (REST and tRPC): public, any
// signed-in caller, a permission held globally, or a permission on the cluster the input names. Cookie-authenticated
// changes must echo the session's CSRF token; a user who must change their password may do nothing else first.
import { ProblemError, type RequestContext } from '@/modules/kernel/core/index.ts';
import type { Principal } from './principal.ts';

/**
 * `clusterPermission` marks a cluster-scoped procedure: its input names `clusterId`, and after the checks here the
 * cluster access guard (cluster-guard.ts) decides on that cluster.
 */
export type Access =
  'public' | 'authenticated' | { readonly permission: string } | { readonly clusterPermission: string };

export interface AccessCheck {
  readonly access: Access;
  readonly isMutation: boolean;
  readonly principal: Principal | undefined;
  /** The request's headers: X-CSRF-Token, Origin and Host decide whether a cookie-made change is the console's. */
  readonly headers: Headers;
  /** Procedures a user may call while their password must be changed (who am I, change password, sign out). */
  readonly allowedBeforePasswordChange: boolean;
  readonly globalPermissions: () => Promise<ReadonlySet<string>>;
}

export async function checkAccess(check: AccessCheck): Promise<void> {
  if (check.access === 'public') return;
  const { principal } = check;
  if (!principal) {
    throw new ProblemError({
      type: 'unauthenticated',
      title: 'Sign-in required',
      status: 401,
      detail: 'Sign in, or send an API token as "Authorization: Bearer as_…".',
    });
  }
  if (check.isMutation) requireCsrfToken(principal, check.headers);
  if (principal.mustChangePassword && !check.allowedBeforePasswordChange) {
    throw new ProblemError({
      type: 'password-change-required',
      title: 'Password change required',
      status: 403,
      detail: 'Change your password first (POST /api/v1/account/password).',
    });
  }
  if (
    typeof check.access === 'object' &&
    'permission' in check.access &&
    !(await check.globalPermissions()).has(check.access.permission)
  ) {
    throw new ProblemError({
      type: 'forbidden',
      title: 'Permission missing',
      status: 403,
      detail: `This needs the permission ${check.access.permission}, which none of your grants gives everywhere.`,
      permission: check.access.permission,
    });
  }
}

/**
 * Whether the browser says the request comes from another site. Browsers send Origin on every cross-site request
 * that can change anything; a request without one (a script, curl) is judged by its CSRF token alone.
 */
function isForeignOrigin(headers: Headers): boolean {
  const origin = headers.get('origin');
  if (origin === null) return false;
  const host = headers.get('x-forwarded-host') ?? headers.get('host');
  return URL.parse(origin)?.host !== host;
}

/**
 * A change made with the session cookie must echo the session's CSRF token and come from this site (a page of
 * another origin that learnt the token still cannot use it); bearer callers need neither.
 */
export function requireCsrfToken(principal: Principal | undefined, headers: Headers): void {
  if (principal?.via !== 'session') return;
  if (headers.get('x-csrf-token') !== principal.csrfToken) {
    throw new ProblemError({
      type: 'csrf-token-missing',
      title: 'Missing CSRF token',
      status: 403,
      detail: 'A change made with the session cookie must send the flotilla_csrf cookie’s value as X-CSRF-Token.',
    });
  }
  if (isForeignOrigin(headers)) {
    throw new ProblemError({
      type: 'foreign-origin',
      title: 'Request from another site',
      status: 403,
      detail: 'A change made with the session cookie must come from a page of this site (the Origin header differs).',
    });
  }
}

/** The caller's user id; procedures that act on "my" data use it (the access gate has already refused anonymous callers). */
export function requireSignedInUser(request: RequestContext): string {
  if (!request.actor.userId) {
    throw new ProblemError({
      type: 'unauthenticated',
      title: 'Sign-in required',
      status: 401,
      detail: 'Sign in first.',
    });
  }
  return request.actor.userId;
}
