import { describe, expect, it } from 'vitest';
import { clientAddress, isTrustedPeer, parseTrustedProxies } from './client-address.ts';

describe('client address', () => {
  const none = parseTrustedProxies(undefined);
  const proxies = parseTrustedProxies('127.0.0.1, 10.0.0.0/8, ::1');

  it('is the TCP peer when no proxy is trusted, whatever X-Forwarded-For claims', () => {
    expect(clientAddress('198.51.100.7', '203.0.113.9', none)).toBe('198.51.100.7');
    expect(clientAddress('::ffff:198.51.100.7', undefined, none)).toBe('198.51.100.7');
  });

  it('reads X-Forwarded-For from the right through trusted proxies only', () => {
    expect(clientAddress('127.0.0.1', '203.0.113.9', proxies)).toBe('203.0.113.9');
    // A client's own forged entry sits left of what the trusted proxies appended and is never reached.
    expect(clientAddress('10.0.0.2', '1.2.3.4, 203.0.113.9, 10.0.0.1', proxies)).toBe('203.0.113.9');
    expect(clientAddress('::ffff:127.0.0.1', '203.0.113.9', proxies)).toBe('203.0.113.9');
    // Only trusted proxies in the chain: the left-most address is the best answer there is.
    expect(clientAddress('127.0.0.1', '10.0.0.5', proxies)).toBe('10.0.0.5');
    expect(clientAddress('127.0.0.1', undefined, proxies)).toBe('127.0.0.1');
  });

  it('refuses a malformed trusted-proxy entry at start', () => {
    expect(() => parseTrustedProxies('10.0.0.0/8, proxy.local')).toThrow(/proxy.local/);
  });
});

describe('trusted peer', () => {
  it('is true only for a TCP peer inside the trusted proxies', () => {
    const proxies = parseTrustedProxies('10.0.0.0/8');
    expect(isTrustedPeer('10.1.2.3', proxies)).toBe(true);
    expect(isTrustedPeer('::ffff:10.1.2.3', proxies)).toBe(true);
    expect(isTrustedPeer('198.51.100.7', proxies)).toBe(false);
    expect(isTrustedPeer('10.1.2.3', parseTrustedProxies(undefined))).toBe(false);
    expect(isTrustedPeer(undefined, proxies)).toBe(false);
  });
});
