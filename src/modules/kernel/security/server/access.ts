// The access rule every procedure declares, checked in one place for both edges (REST and tRPC): public, any
// signed-in caller, a permission held globally, or a permission on the cluster the input names. Cookie-authenticated
// changes must echo the session's CSRF token; a user who must change their password may do nothing else first.
import { ProblemError } from '../../core/problem.ts';
import type { RequestContext } from '../../core/request-context.ts';
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
  /** The X-CSRF-Token header as sent. */
  readonly csrfHeader: string | null;
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
  if (principal.via === 'session' && check.isMutation && check.csrfHeader !== principal.csrfToken) {
    throw new ProblemError({
      type: 'csrf-token-missing',
      title: 'Missing CSRF token',
      status: 403,
      detail: 'A change made with the session cookie must send the flotilla_csrf cookie’s value as X-CSRF-Token.',
    });
  }
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
