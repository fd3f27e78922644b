// Sign-in: throttle, ask the provider, audit, start a session. Every failure — wrong password, unknown user,
// disabled account, unknown or unconfigured provider — looks and takes the same. The credential path (`signIn`)
// and the redirect path (identity-oidc, after the provider's callback) share the steps below, so both are
// throttled by username and source, audited as `auth.sign-in`, and refuse disabled users alike.
import type { PrismaClient } from '@/server/db/database.ts';
import { ProblemError } from '../../core/problem.ts';
import type { RequestContext } from '../../core/request-context.ts';
import { recordAuditEvent } from '../../audit/server/audit.service.ts';
import type { CredentialProviderDeclaration, SettingsReader } from '../../plugin/descriptor.ts';
import type { ModuleRegistry } from '../../plugin/registry.ts';
import { verifyAgainstDecoy } from './passwords.ts';
import { createSession } from './sessions.ts';
import { forgiveUser, lockedUntil, recordFailure, throttleKeys } from './sign-in-throttle.ts';

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

export const SIGN_IN_FAILED = new ProblemError({
  type: 'sign-in-failed',
  title: 'Sign-in failed',
  status: 401,
  detail: 'The username or password is not right.',
});

/** Every sign-in provider of the enabled modules, credential and redirect alike (bearer providers are apart). */
export function signInProviders(registry: ModuleRegistry) {
  return registry.enabledDescriptors.flatMap((descriptor) => descriptor.signInProviders);
}

export function credentialProviders(registry: ModuleRegistry): CredentialProviderDeclaration[] {
  return signInProviders(registry).filter((provider) => provider.kind === 'credential');
}

const auditOf = (attempt: SignInAttempt) => ({
  action: 'auth.sign-in',
  target: attempt.username,
  parameters: { provider: attempt.providerId },
});

/** Throws 429 `sign-in-throttled` (audited as REFUSED) while the username or the source is locked. */
export async function refuseWhileThrottled(
  dependencies: SignInDependencies,
  request: RequestContext,
  attempt: SignInAttempt,
): Promise<void> {
  const { prisma } = dependencies;
  const keys = throttleKeys(attempt.username, request.sourceIp).map((entry) => entry.key);
  const until = await lockedUntil(prisma, keys);
  if (!until) return;
  await recordAuditEvent(prisma, request, auditOf(attempt), { outcome: 'REFUSED', error: 'throttled' });
  throw new ProblemError({
    type: 'sign-in-throttled',
    title: 'Too many failed sign-ins',
    status: 429,
    detail: `Too many failed sign-ins for this username or from this address. Try again after ${until.toISOString()}.`,
    retryAfterSeconds: Math.ceil((until.getTime() - Date.now()) / 1000),
  });
}

/** Counts the failure against the username and the source, audits it, and throws `sign-in-failed`. */
export async function failSignIn(
  dependencies: SignInDependencies,
  request: RequestContext,
  attempt: SignInAttempt,
): Promise<never> {
  const { prisma, settings } = dependencies;
  await recordFailure(prisma, throttleKeys(attempt.username, request.sourceIp), {
    userFailures: settings.integer('security.sign-in.user-failures'),
    sourceFailures: settings.integer('security.sign-in.source-failures'),
    windowMs: settings.duration('security.sign-in.lockout'),
  });
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
): Promise<SignInResult> {
  const { prisma, settings } = dependencies;
  const user = userId ? await prisma.user.findUnique({ where: { id: userId } }) : null;
  if (!user || user.disabled) return failSignIn(dependencies, request, attempt);
  await forgiveUser(prisma, attempt.username);
  const session = await createSession(prisma, {
    userId: user.id,
    lifetimeMs: settings.duration('security.session-lifetime'),
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
  await refuseWhileThrottled(dependencies, request, attempt);
  const provider = credentialProviders(dependencies.registry).find((candidate) => candidate.id === attempt.providerId);
  // No such provider (or a redirect provider named here) costs one decoy verification, like a wrong password.
  const identity = provider
    ? await (await provider.load()).authenticate({ prisma: dependencies.prisma }, input)
    : await verifyAgainstDecoy(input.password);
  return completeSignIn(dependencies, request, attempt, identity ? identity.userId : undefined);
}
