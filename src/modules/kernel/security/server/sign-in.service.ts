// Sign-in through a credential provider: throttle, ask the provider, audit, start a session. Every failure —
// wrong password, unknown user, disabled account, unknown or unconfigured provider — looks and takes the same.
import type { PrismaClient } from '@/server/db/database.ts';
import { ProblemError } from '../../core/problem.ts';
import type { RequestContext } from '../../core/request-context.ts';
import { recordAuditEvent } from '../../audit/server/audit.service.ts';
import type { SettingsReader } from '../../plugin/descriptor.ts';
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

export const SIGN_IN_FAILED = new ProblemError({
  type: 'sign-in-failed',
  title: 'Sign-in failed',
  status: 401,
  detail: 'The username or password is not right.',
});

export function credentialProviders(registry: ModuleRegistry) {
  return registry.enabledDescriptors.flatMap((descriptor) => descriptor.signInProviders);
}

export async function signIn(
  dependencies: SignInDependencies,
  request: RequestContext,
  input: { username: string; password: string; provider?: string; userAgent: string | null },
): Promise<SignInResult> {
  const { prisma, settings, registry } = dependencies;
  const providerId = input.provider ?? 'local';
  const audit = { action: 'auth.sign-in', target: input.username, parameters: { provider: providerId } };
  const keys = throttleKeys(input.username, request.sourceIp);
  const until = await lockedUntil(
    prisma,
    keys.map((entry) => entry.key),
  );
  if (until) {
    await recordAuditEvent(prisma, request, audit, { outcome: 'REFUSED', error: 'throttled' });
    throw new ProblemError({
      type: 'sign-in-throttled',
      title: 'Too many failed sign-ins',
      status: 429,
      detail: `Too many failed sign-ins for this username or from this address. Try again after ${until.toISOString()}.`,
      retryAfterSeconds: Math.ceil((until.getTime() - Date.now()) / 1000),
    });
  }
  const provider = credentialProviders(registry).find((candidate) => candidate.id === providerId);
  // No such provider costs one decoy verification, like a wrong password.
  const identity = provider
    ? await (await provider.load()).authenticate({ prisma }, input)
    : await verifyAgainstDecoy(input.password);
  const user = identity ? await prisma.user.findUnique({ where: { id: identity.userId } }) : null;
  if (!user || user.disabled) {
    await recordFailure(prisma, keys, {
      userFailures: settings.integer('security.sign-in.user-failures'),
      sourceFailures: settings.integer('security.sign-in.source-failures'),
      windowMs: settings.duration('security.sign-in.lockout'),
    });
    await recordAuditEvent(prisma, request, audit, { outcome: 'FAILED', error: 'sign-in failed' });
    throw SIGN_IN_FAILED;
  }
  await forgiveUser(prisma, input.username);
  const session = await createSession(prisma, {
    userId: user.id,
    lifetimeMs: settings.duration('security.session-lifetime'),
    sourceIp: request.sourceIp,
    userAgent: input.userAgent,
  });
  await prisma.user.update({ where: { id: user.id }, data: { lastSignInAt: new Date() } });
  await recordAuditEvent(prisma, { ...request, actor: { name: user.username, userId: user.id } }, audit, {
    outcome: 'SUCCEEDED',
  });
  return { user: { id: user.id, username: user.username, mustChangePassword: user.mustChangePassword }, session };
}
