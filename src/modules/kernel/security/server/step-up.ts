// Step-up re-authentication for the few changes that must not ride on a session alone (plugin changes, spec
// Authentication 11): the person proves again that they are at the keyboard. A local account types its password
// again; an account of an identity provider must have signed in within the last few minutes (a fresh OIDC sign-in).
// An API token or an MCP caller has no one to ask, so it is refused outright.
import type { PrismaClient } from '@/base/db/database.ts';
import type { Principal } from '@/modules/kernel/access/index.ts';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { verifyAgainstDecoy, verifyPassword } from './passwords.ts';
import { readCookie, SESSION_COOKIE, sessionDigest } from './sessions.ts';

/** How recent an identity provider's sign-in must be to count as a step-up. */
const STEP_UP_FRESH_SIGN_IN_MS = 5 * 60_000;

const refuse = (type: string, title: string, detail: string, status = 403) =>
  new ProblemError({ type, title, status, detail });

export interface StepUpRequest {
  readonly principal: Principal | undefined;
  readonly headers: Headers;
  /** The password typed again (local accounts). */
  readonly password?: string | undefined;
  readonly now?: Date;
}

/** Passes when the caller has stepped up; throws a 403 problem saying what to do otherwise. */
export async function requireStepUp(prisma: PrismaClient, request: StepUpRequest): Promise<void> {
  const { principal } = request;
  const userId = principal?.actor.userId;
  if (!principal || !userId || principal.via !== 'session')
    throw refuse(
      'step-up-impossible',
      'Step-up re-authentication impossible',
      'This change needs a person signed in to the console, who confirms it by authenticating again; API tokens and MCP callers cannot make it.',
    );
  const user = await prisma.user.findUnique({ where: { id: userId } });
  if (!user || user.disabled) throw refuse('step-up-failed', 'Step-up re-authentication failed', 'No such account.');
  if (user.providerId === 'local') {
    if (!request.password)
      throw refuse(
        'step-up-required',
        'Step-up re-authentication required',
        'Type your password again to confirm this change (field `password`).',
      );
    const matches = user.passwordHash
      ? await verifyPassword(request.password, user.passwordHash)
      : await verifyAgainstDecoy(request.password);
    if (!matches) throw refuse('step-up-failed', 'Step-up re-authentication failed', 'The password is not right.');
    return;
  }
  const token = readCookie(request.headers, SESSION_COOKIE);
  const session = token ? await prisma.session.findUnique({ where: { id: sessionDigest(token) } }) : null;
  const now = request.now ?? new Date();
  if (!session || now.getTime() - session.createdAt.getTime() > STEP_UP_FRESH_SIGN_IN_MS)
    throw refuse(
      'step-up-required',
      'Step-up re-authentication required',
      `Sign in again with ${user.providerId} to confirm this change: a sign-in within the last ${String(STEP_UP_FRESH_SIGN_IN_MS / 60_000)} minutes counts.`,
    );
}
