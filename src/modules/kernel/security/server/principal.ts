// The request-filter chain's principal step: a bearer token (every enabled bearer provider is asked; each answers
// only for its own tokens) or the session cookie. Audit names a token's caller `<owner> [token: <name>]`. Unknown
// tokens are throttled per address; a token that verifies is never refused.
import type { PrismaClient } from '@/base/db/database.ts';
import { recordAuditEvent } from '@/modules/kernel/audit/index.ts';
import type { Problem, RequestContext } from '@/modules/kernel/core/index.ts';
import type { ModuleRegistry, SettingsReader } from '@/modules/kernel/plugin/index.ts';
import { bearerProviders } from '../module.ts';
import type { Principal } from '@/modules/kernel/access/index.ts';
import { readCookie, resolveSession, SESSION_COOKIE } from './sessions.ts';
import { SECURITY_SETTINGS } from './security.settings.ts';
import { limitsOf, throttledProblem } from './sign-in.service.ts';
import { recordFailure, refusalOf } from './sign-in-throttle.ts';

function bearerTokenOf(headers: Headers): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(headers.get('authorization') ?? '');
  return match?.[1];
}

export interface PrincipalDependencies {
  readonly prisma: PrismaClient;
  readonly registry: ModuleRegistry;
  readonly settings: SettingsReader;
  /** The request being served: its source address keys the bearer throttle, and a refusal is audited with it. */
  readonly request: RequestContext;
}

/** Who is calling; or, for a source guessing bearer tokens, the refusal to answer instead of anything else. */
export type PrincipalAnswer = { readonly principal?: Principal; readonly refusal?: Problem };

export async function resolvePrincipal(
  dependencies: PrincipalDependencies,
  headers: Headers,
): Promise<PrincipalAnswer> {
  const { prisma, settings, request } = dependencies;
  const bearer = bearerTokenOf(headers);
  if (bearer) {
    const known = await bearerPrincipal(dependencies, bearer);
    if (known) return known;
    // Only tokens that do not verify are counted, per address, like failed sign-ins; past the free ones each further
    // unknown token from the address waits and answers 429. A token that verifies is never refused: the throttle
    // keys on the guesses, so one script guessing cannot lock out the valid tokens of its neighbours behind the
    // same address. The first refusal is audited, the rest counted.
    const keys = request.sourceIp ? [{ key: `bearer:${request.sourceIp}`, kind: 'bearer' as const }] : [];
    const refusal = await refusalOf(prisma, keys);
    if (refusal) {
      if (refusal.first) {
        await recordAuditEvent(
          prisma,
          request,
          { action: 'auth.bearer', target: request.sourceIp ?? undefined },
          {
            outcome: 'REFUSED',
            error: 'throttled: too many unknown bearer tokens from this address; further refusals are counted',
          },
        );
      }
      return { refusal: throttledProblem(refusal.until, 'Too many unknown API tokens came from this address.') };
    }
    await recordFailure(prisma, keys, limitsOf(settings));
    return {};
  }
  const token = readCookie(headers, SESSION_COOKIE);
  const lifetimeMs = settings.duration(SECURITY_SETTINGS.sessionLifetime);
  const session = token ? await resolveSession(prisma, token, lifetimeMs) : undefined;
  if (!session) return {};
  return {
    principal: {
      actor: { name: session.username, userId: session.userId },
      via: 'session',
      csrfToken: session.csrfToken,
      mustChangePassword: session.mustChangePassword,
    },
  };
}

/** The token's owner, when an enabled bearer provider knows the token; `{}` for a disabled owner. */
async function bearerPrincipal(
  { prisma, registry }: PrincipalDependencies,
  bearer: string,
): Promise<PrincipalAnswer | undefined> {
  for (const { value: declaration } of registry.contributionsTo(bearerProviders)) {
    const answer = await (await declaration.load()).resolve({ prisma }, bearer);
    if (!answer) continue;
    const owner = await prisma.user.findUnique({ where: { id: answer.userId } });
    if (!owner || owner.disabled) return {};
    return {
      principal: {
        actor: { name: `${owner.username} [token: ${answer.label}]`, userId: owner.id },
        via: 'bearer',
        mustChangePassword: owner.mustChangePassword,
      },
    };
  }
  return undefined;
}
