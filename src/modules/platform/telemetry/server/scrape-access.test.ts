// Who may read GET /metrics, decided from the settings alone: never anonymous by default, the token by its SHA-256,
// the allowlist by address (IPv4 on a dual-stack socket included), a broken allowlist admitting no one.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SettingsReader } from '@/modules/kernel/plugin/index.ts';
import { globToLike } from '@/base/db/like-pattern.ts';
import { parseQueueGlobs } from './queue-globs.ts';
import { scrapeRefusal } from './scrape-access.ts';

const TOKEN = 'a-scrape-token';

function settings(values: { token?: string; addresses?: string }): SettingsReader {
  const strings: Record<string, string> = {
    'telemetry.scrape-token-sha256': values.token ?? '',
    'telemetry.allowed-addresses': values.addresses ?? '',
  };
  return {
    string: (setting) => strings[setting.key] ?? '',
    duration: () => 0,
    integer: () => 0,
    boolean: () => false,
  };
}

const bearer = (token: string) => new Headers({ authorization: `Bearer ${token}` });
const hashed = createHash('sha256').update(TOKEN).digest('hex');

describe('scrapeRefusal', () => {
  it('refuses everyone with 403 while neither a token nor an address is set', () => {
    expect(scrapeRefusal(settings({}), new Headers(), '127.0.0.1')).toMatchObject({ type: 'forbidden', status: 403 });
    expect(scrapeRefusal(settings({}), bearer(''), null)).toMatchObject({ status: 403 });
  });

  it('admits the token whose SHA-256 is set, and answers 401 to another or none', () => {
    const withToken = settings({ token: hashed });
    expect(scrapeRefusal(withToken, bearer(TOKEN), null)).toBeUndefined();
    expect(scrapeRefusal(withToken, new Headers({ authorization: `bearer  ${TOKEN} ` }), null)).toBeUndefined();
    expect(scrapeRefusal(withToken, bearer(`${TOKEN}x`), null)).toMatchObject({ type: 'unauthenticated', status: 401 });
    expect(scrapeRefusal(withToken, new Headers(), null)).toMatchObject({ status: 401 });
    expect(scrapeRefusal(withToken, new Headers({ authorization: `Basic ${TOKEN}` }), null)).toMatchObject({
      status: 401,
    });
  });

  it('admits an allowlisted address without a token, IPv4-mapped IPv6 included', () => {
    const allowlist = settings({ addresses: '10.0.0.0/8, ::1' });
    expect(scrapeRefusal(allowlist, new Headers(), '10.2.3.4')).toBeUndefined();
    expect(scrapeRefusal(allowlist, new Headers(), '::ffff:10.2.3.4')).toBeUndefined();
    expect(scrapeRefusal(allowlist, new Headers(), '::1')).toBeUndefined();
    expect(scrapeRefusal(allowlist, new Headers(), '11.0.0.1')).toMatchObject({ status: 403 });
    expect(scrapeRefusal(allowlist, new Headers(), null)).toMatchObject({ status: 403 });
  });

  it('admits no address when the allowlist does not parse', () => {
    expect(scrapeRefusal(settings({ addresses: '10.0.0.0/33' }), new Headers(), '10.0.0.1')).toMatchObject({
      status: 403,
    });
  });
});

describe('queue globs', () => {
  it('splits on commas, trims, and turns `*` into LIKE’s `%` with LIKE’s own wildcards taken literally', () => {
    expect(parseQueueGlobs(' orders.* , ,*.DLQ,')).toEqual(['orders.*', '*.DLQ']);
    expect(parseQueueGlobs('')).toEqual([]);
    expect(globToLike('orders.*')).toBe('orders.%');
    expect(globToLike('a_b%c*')).toBe('a\\_b\\%c%');
  });
});
