// API tokens: `as_` followed by 192 random bits (base64url), stored only as their SHA-256.
import { createHash, randomBytes } from 'node:crypto';

const TOKEN_PREFIX = 'as_';

export function newToken(): string {
  return `${TOKEN_PREFIX}${randomBytes(24).toString('base64url')}`;
}

export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function isApiToken(token: string): boolean {
  return /^as_[A-Za-z0-9_-]{32}$/.test(token);
}
