import { describe, expect, it } from 'vitest';
import { asAddressed } from './request-origin.ts';

describe('asAddressed', () => {
  it('names the host the browser used, and the proxy’s host and scheme when it says them', () => {
    const direct = new Request('http://localhost:3000/api/v1/auth/oidc/signin/corp?next=%2F', {
      headers: { host: '127.0.0.1:4000' },
    });
    expect(asAddressed(direct).url).toBe('http://127.0.0.1:4000/api/v1/auth/oidc/signin/corp?next=%2F');
    const proxied = new Request('http://localhost:3000/api/v1/auth/oidc/callback/corp', {
      headers: { host: '10.0.0.5:3000', 'x-forwarded-host': 'console.example.com', 'x-forwarded-proto': 'https' },
    });
    expect(asAddressed(proxied).url).toBe('https://console.example.com/api/v1/auth/oidc/callback/corp');
  });
});
