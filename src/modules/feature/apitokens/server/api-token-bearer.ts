// The bearer provider for API tokens: answers only for well-formed `as_` tokens it has, unexpired; records last
// use at most once a minute so a busy script does not write on every call.
import type { BearerProvider } from '@/modules/kernel/security/module.ts';
import { isApiToken, tokenDigest } from './api-token.ts';

const LAST_USE_RESOLUTION_MS = 60_000;

export const resolve: BearerProvider['resolve'] = async ({ prisma }, token) => {
  if (!isApiToken(token)) return undefined;
  const row = await prisma.apiToken.findUnique({ where: { tokenHash: tokenDigest(token) } });
  const now = new Date();
  if (!row || (row.expiresAt && row.expiresAt <= now)) return undefined;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USE_RESOLUTION_MS) {
    await prisma.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return { userId: row.userId, label: row.name };
};
