// Who may read GET /metrics: a caller sending the scrape token (its SHA-256 is the setting, compared in constant
// time), or one whose address is on telemetry.allowed-addresses. Nothing is configured by default, so the endpoint
// is never anonymous: without either it answers 403, with a token configured but a wrong or missing one 401.
import { createHash, timingSafeEqual } from 'node:crypto';
import { isListed, parseAddressList } from '@/base/address-list.ts';
import type { SettingsReader } from '@/modules/kernel/plugin/index.ts';
import type { Problem } from '@/modules/kernel/core/index.ts';
import { TELEMETRY_SETTINGS } from './telemetry.settings.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('telemetry');

const sha256 = (text: string) => createHash('sha256').update(text).digest();

function bearerOf(headers: Headers): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(headers.get('authorization') ?? '');
  return match?.[1];
}

function isAllowedAddress(settings: SettingsReader, sourceIp: string | null): boolean {
  const text = settings.string(TELEMETRY_SETTINGS.allowedAddresses);
  if (!sourceIp || !text.trim()) return false;
  try {
    return isListed(parseAddressList(text, TELEMETRY_SETTINGS.allowedAddresses.key), sourceIp);
  } catch (error) {
    log.error({ err: error }, 'the scrape allowlist cannot be read; no one is admitted');
    return false;
  }
}

/** Undefined when the caller may scrape; otherwise the problem to answer. */
export function scrapeRefusal(
  settings: SettingsReader,
  headers: Headers,
  sourceIp: string | null,
): Problem | undefined {
  const expected = settings.string(TELEMETRY_SETTINGS.tokenSha256);
  const bearer = bearerOf(headers);
  if (expected && bearer && timingSafeEqual(sha256(bearer), Buffer.from(expected, 'hex'))) return undefined;
  if (isAllowedAddress(settings, sourceIp)) return undefined;
  if (expected) {
    return {
      type: 'unauthenticated',
      title: 'Scrape token required',
      status: 401,
      detail: 'Send the scrape token whose SHA-256 is telemetry.scrape-token-sha256 as "Authorization: Bearer …".',
    };
  }
  return {
    type: 'forbidden',
    title: 'Metrics not open to this caller',
    status: 403,
    detail:
      'GET /metrics needs a scrape token (set telemetry.scrape-token-sha256) or the caller’s address in telemetry.allowed-addresses; neither admits this request.',
  };
}
