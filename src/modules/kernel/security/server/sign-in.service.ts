// Sign-in: throttle, ask the provider, audit, start a session. Every failure — wrong password, unknown user,
// disabled account, unknown or unconfigured provider — looks and takes the same. The credential path (`signIn`)
// and the redirect path (identity-oidc, after the provider's callback) share the steps below, so both are
// throttled by username and source, audited as `auth.sign-in`, and refuse disabled users alike.
import type { PrismaClient } from '@/base/db/database.ts';
import { ProblemError, type Problem, type RequestContext } from '@/modules/kernel/core/index.ts';
import { recordAuditEvent } from '@/modules/kernel/audit/index.ts';
import type { ModuleRegistry, SettingsReader } from '@/modules/kernel/plugin/index.ts';
import { signInProviders } from '../module.ts';
import type { CredentialProviderDeclaration } from './providers.ts';
import { verifyAgainstDecoy } from './passwords.ts';
import { SECURITY_SETTINGS } from './security.settings.ts';
import { createSession } from './sessions.ts';
import {
  forgiveSuccess,
  isFamiliarAddress,
  recordFailure,
  refusalOf,
  reserveAttempt,
  throttleKeys,
  type ThrottleKey,
  type ThrottleLimits,
} from './sign-in-throttle.ts';

export interface SignInDependencies {
  readonly prisma: PrismaClient;
  readonly settings: SettingsReader;
  readonly registry: ModuleRegistry;
}

export interface SignInResult {
  readonly user: { readonly id: string; readonly username: string; readonly mustChangePassword: boolean };
  readonly session: { readonly token: string; readonly csrfToken: string; readonly expiresAt: Date };
}

/** One sign-in attempt: who tried (as typed or as the provider named them), through which provider, from where. */
export interface SignInAttempt {
  readonly username: string;
  readonly providerId: string;
  readonly userAgent: string | null;
}

const SIGN_IN_FAILED = new ProblemError({
  type: 'sign-in-failed',
  title: 'Sign-in failed',
  status: 401,
  detail: 'The username or password is not right.',
});

/** Every sign-in provider of the enabled modules, credential and redirect alike (bearer providers are apart). */
export function enabledSignInProviders(registry: ModuleRegistry) {
  return registry.contributionsTo(signInProviders).map((contributed) => contributed.value);
}

function credentialProviders(registry: ModuleRegistry): CredentialProviderDeclaration[] {
  return enabledSignInProviders(registry).filter((provider) => provider.kind === 'credential');
}

const auditOf = (attempt: SignInAttempt) => ({
  action: 'auth.sign-in',
  target: attempt.username,
  parameters: { provider: attempt.providerId },
});

export function limitsOf(settings: SettingsReader): ThrottleLimits {
  return {
    pairFailures: settings.integer(SECURITY_SETTINGS.signInPairFailures),
    userFailures: settings.integer(SECURITY_SETTINGS.signInUserFailures),
    sourceFailures: settings.integer(SECURITY_SETTINGS.signInSourceFailures),
    windowMs: settings.duration(SECURITY_SETTINGS.signInLockout),
  };
}

/** The attempt's throttle keys: from an address the user signed in from recently, without the username-wide key. */
async function keysOf(dependencies: SignInDependencies, request: RequestContext, attempt: SignInAttempt) {
  const familiar = await isFamiliarAddress(dependencies.prisma, attempt.username, request.sourceIp);
  return throttleKeys(attempt.username, request.sourceIp, familiar);
}

/**
 * Throws 429 `sign-in-throttled` while a key of the attempt is locked or waiting. Only the first refusal since
 * the last admitted attempt is audited (REFUSED); later ones are counted on the throttle row, so a flood of refused
 * attempts cannot flood the audit log (the count shows in the administrators' throttle list and its unlock).
 */
async function refuse(
  dependencies: SignInDependencies,
  request: RequestContext,
  attempt: SignInAttempt,
  keys: readonly ThrottleKey[],
) {
  const refusal = await refusalOf(dependencies.prisma, keys);
  if (!refusal) return;
  if (refusal.first) {
    await recordAuditEvent(dependencies.prisma, request, auditOf(attempt), {
      outcome: 'REFUSED',
      error: `throttled (${refusal.kinds.join(', ')}); further refused attempts are counted, not audited`,
    });
  }
  const why = refusal.kinds.includes('user')
    ? 'Too many failed sign-ins for this username from addresses it has not signed in from; addresses it signed in from recently are not held back.'
    : 'Too many failed sign-ins for this username or from this address.';
  throw new ProblemError(throttledProblem(refusal.until, why));
}

/** 429 `sign-in-throttled`, saying when to come back (in the body and as Retry-After). */
export function throttledProblem(until: Date, why: string): Problem {
  return {
    type: 'sign-in-throttled',
    title: 'Too many failed sign-ins',
    status: 429,
    detail: `${why} Try again after ${until.toISOString()}.`,
    retryAfterSeconds: Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000)),
  };
}

/** A redirect sign-in's check before it goes on: refused (429) while the source or the username is throttled. */
export async function refuseWhileThrottled(
  dependencies: SignInDependencies,
  request: RequestContext,
  attempt: SignInAttempt,
): Promise<void> {
  await refuse(dependencies, request, attempt, await keysOf(dependencies, request, attempt));
}

/**
 * A password attempt's reservation, made before the password is verified: one failure counted on every key in
 * one transaction, refused (429) when a key is locked or waiting. Parallel and batched attempts therefore each
 * take a place under the limit instead of all passing one check.
 */
async function reserveSignInAttempt(
  dependencies: SignInDependencies,
  request: RequestContext,
  attempt: SignInAttempt,
): Promise<void> {
  const keys = await keysOf(dependencies, request, attempt);
  // A refused reservation answers 429, never 401: no password was checked. When the wait ended between the
  // reservation and the look at the refusal, the attempt tries for its place again.
  for (let tries = 0; tries < 3; tries++) {
    if (await reserveAttempt(dependencies.prisma, keys, limitsOf(dependencies.settings))) return;
    await refuse(dependencies, request, attempt, keys);
  }
  throw new ProblemError(throttledProblem(new Date(Date.now() + 1_000), 'Too many sign-ins at once; try again.'));
}

/**
 * Audits the failure and throws `sign-in-failed`; counts it against the username and the source unless the
 * attempt already reserved its failure (`counted`).
 */
export async function failSignIn(
  dependencies: SignInDependencies,
  request: RequestContext,
  attempt: SignInAttempt,
  counted = false,
): Promise<never> {
  const { prisma, settings } = dependencies;
  if (!counted) await recordFailure(prisma, await keysOf(dependencies, request, attempt), limitsOf(settings));
  await recordAuditEvent(prisma, request, auditOf(attempt), { outcome: 'FAILED', error: 'sign-in failed' });
  throw SIGN_IN_FAILED;
}

/**
 * The provider has vouched for `userId` (or for nobody): refuse a missing or disabled account, else forgive the
 * username's failures, start the session and audit the success.
 */
export async function completeSignIn(
  dependencies: SignInDependencies,
  request: RequestContext,
  attempt: SignInAttempt,
  userId: string | undefined,
  reserved = false,
): Promise<SignInResult> {
  const { prisma, settings } = dependencies;
  const user = userId ? await prisma.user.findUnique({ where: { id: userId } }) : null;
  if (!user || user.disabled) return failSignIn(dependencies, request, attempt, reserved);
  const keys = await keysOf(dependencies, request, attempt);
  await forgiveSuccess(prisma, keys, attempt.username, request.sourceIp, reserved);
  const session = await createSession(prisma, {
    userId: user.id,
    lifetimeMs: settings.duration(SECURITY_SETTINGS.sessionLifetime),
    sourceIp: request.sourceIp,
    userAgent: attempt.userAgent,
  });
  await prisma.user.update({ where: { id: user.id }, data: { lastSignInAt: new Date() } });
  await recordAuditEvent(prisma, { ...request, actor: { name: user.username, userId: user.id } }, auditOf(attempt), {
    outcome: 'SUCCEEDED',
  });
  return { user: { id: user.id, username: user.username, mustChangePassword: user.mustChangePassword }, session };
}

export async function signIn(
  dependencies: SignInDependencies,
  request: RequestContext,
  input: { username: string; password: string; provider?: string; userAgent: string | null },
): Promise<SignInResult> {
  const attempt = { username: input.username, providerId: input.provider ?? 'local', userAgent: input.userAgent };
  await reserveSignInAttempt(dependencies, request, attempt);
  const provider = credentialProviders(dependencies.registry).find((candidate) => candidate.id === attempt.providerId);
  // No such provider (or a redirect provider named here) costs one decoy verification, like a wrong password.
  const identity = provider
    ? await (await provider.load()).authenticate({ prisma: dependencies.prisma }, input)
    : await verifyAgainstDecoy(input.password);
  return completeSignIn(dependencies, request, attempt, identity ? identity.userId : undefined, true);
}
