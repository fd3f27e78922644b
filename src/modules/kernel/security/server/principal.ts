// The request-filter chain's principal step: a bearer token (every enabled bearer provider is asked; each answers
// only for its own tokens) or the session cookie. Audit names a token's caller `<owner> [token: <name>]`.
import type { PrismaClient } from '@/server/db/database.ts';
import type { Actor } from '../../core/request-context.ts';
import type { ModuleRegistry } from '../../plugin/registry.ts';
import { readCookie, resolveSession, SESSION_COOKIE } from './sessions.ts';

export interface Principal {
  readonly actor: Actor;
  readonly via: 'session' | 'bearer';
  /** The session's CSRF token; cookie-authenticated mutations must echo it. */
  readonly csrfToken?: string;
  readonly mustChangePassword: boolean;
}

export function bearerTokenOf(headers: Headers): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(headers.get('authorization') ?? '');
  return match?.[1];
}

export async function resolvePrincipal(
  dependencies: { prisma: PrismaClient; registry: ModuleRegistry; sessionLifetimeMs: number },
  headers: Headers,
): Promise<Principal | undefined> {
  const { prisma, registry } = dependencies;
  const bearer = bearerTokenOf(headers);
  if (bearer) {
    for (const declaration of registry.enabledDescriptors.flatMap((descriptor) => descriptor.bearerProviders)) {
      const answer = await (await declaration.load()).resolve({ prisma }, bearer);
      if (!answer) continue;
      const owner = await prisma.user.findUnique({ where: { id: answer.userId } });
      if (!owner || owner.disabled) return undefined;
      return {
        actor: { name: `${owner.username} [token: ${answer.label}]`, userId: owner.id },
        via: 'bearer',
        mustChangePassword: owner.mustChangePassword,
      };
    }
    return undefined;
  }
  const token = readCookie(headers, SESSION_COOKIE);
  const session = token ? await resolveSession(prisma, token, dependencies.sessionLifetimeMs) : undefined;
  if (!session) return undefined;
  return {
    actor: { name: session.username, userId: session.userId },
    via: 'session',
    csrfToken: session.csrfToken,
    mustChangePassword: session.mustChangePassword,
  };
}
