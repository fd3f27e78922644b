// Who is calling, as the access checks see it. The security module resolves it (session cookie or bearer token);
// access only reads it, so the procedure kit needs nothing from the module that owns users and sessions.
import type { Actor } from '@/modules/kernel/core/index.ts';

export interface Principal {
  readonly actor: Actor;
  readonly via: 'session' | 'bearer';
  /** The session's CSRF token; cookie-authenticated mutations must echo it. */
  readonly csrfToken?: string;
  readonly mustChangePassword: boolean;
}
