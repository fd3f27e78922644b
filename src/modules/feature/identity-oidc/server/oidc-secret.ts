// The key Auth.js seals its short-lived cookies with (state, PKCE verifier, nonce). Every instance must use the
// same one, so it is FLOTILLA_OIDC_SECRET when set, else one random key kept in the database.
import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '@/base/db/database.ts';

let cached: Promise<string> | undefined;

export function oidcCookieSecret(prisma: PrismaClient): Promise<string> {
  const fromEnvironment = process.env.FLOTILLA_OIDC_SECRET;
  if (fromEnvironment) return Promise.resolve(fromEnvironment);
  cached ??= (async () => {
    await prisma.identityOidcSecret.createMany({
      data: [{ id: 1, secret: randomBytes(32).toString('base64url') }],
      skipDuplicates: true,
    });
    return (await prisma.identityOidcSecret.findUniqueOrThrow({ where: { id: 1 } })).secret;
  })().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}
