// Console sessions: a random token in an HttpOnly cookie, stored only as its sha256. Each use extends the session
// to `security.session-lifetime` from now (written at most once a minute), so an idle session expires.
import { createHash, randomBytes } from 'node:crypto';
import type { PrismaClient } from '@/base/db/database.ts';

export const SESSION_COOKIE = 'flotilla_session';
const CSRF_COOKIE = 'flotilla_csrf';
const EXTEND_AFTER_MS = 60_000;

export interface SessionPrincipal {
  readonly userId: string;
  readonly username: string;
  readonly mustChangePassword: boolean;
  readonly csrfToken: string;
}

export const sessionDigest = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createSession(
  prisma: PrismaClient,
  input: { userId: string; lifetimeMs: number; sourceIp: string | null; userAgent: string | null },
): Promise<{ token: string; csrfToken: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(24).toString('base64url');
  const expiresAt = new Date(Date.now() + input.lifetimeMs);
  await prisma.session.create({
    data: {
      id: sessionDigest(token),
      userId: input.userId,
      csrfToken,
      expiresAt,
      sourceIp: input.sourceIp,
      userAgent: input.userAgent?.slice(0, 300) ?? null,
    },
  });
  return { token, csrfToken, expiresAt };
}

export async function resolveSession(
  prisma: PrismaClient,
  token: string,
  lifetimeMs: number,
): Promise<SessionPrincipal | undefined> {
  const now = new Date();
  const session = await prisma.session.findUnique({ where: { id: sessionDigest(token) } });
  if (!session || session.expiresAt <= now) return undefined;
  const user = await prisma.user.findUnique({ where: { id: session.userId } });
  if (!user || user.disabled) return undefined;
  if (now.getTime() - session.lastSeenAt.getTime() > EXTEND_AFTER_MS) {
    await prisma.session.update({
      where: { id: session.id },
      data: { lastSeenAt: now, expiresAt: new Date(now.getTime() + lifetimeMs) },
    });
  }
  return {
    userId: user.id,
    username: user.username,
    mustChangePassword: user.mustChangePassword,
    csrfToken: session.csrfToken,
  };
}

/** True when a live session was ended. */
export async function endSession(prisma: PrismaClient, token: string): Promise<boolean> {
  return (await prisma.session.deleteMany({ where: { id: sessionDigest(token) } })).count > 0;
}

/** Cookie attributes: HttpOnly and SameSite=Lax always, Secure when the request came over TLS (docs/security.md). */
export function sessionCookies(
  session: { token: string; csrfToken: string; expiresAt: Date } | undefined,
  secure: boolean,
): string[] {
  const common = `Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
  if (!session) {
    return [`${SESSION_COOKIE}=; ${common}; HttpOnly; Max-Age=0`, `${CSRF_COOKIE}=; ${common}; Max-Age=0`];
  }
  const expires = `Expires=${session.expiresAt.toUTCString()}`;
  // The CSRF cookie is readable by the console's script, which echoes it in X-CSRF-Token on every mutation.
  return [
    `${SESSION_COOKIE}=${session.token}; ${common}; HttpOnly; ${expires}`,
    `${CSRF_COOKIE}=${session.csrfToken}; ${common}; ${expires}`,
  ];
}

export function readCookie(headers: Headers, name: string): string | undefined {
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}
