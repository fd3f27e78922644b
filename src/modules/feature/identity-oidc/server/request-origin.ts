// Where a sign-in request came from. Pure, so it is tested on its own. (Where it may return to is
// src/base/next-path.ts, shared with the sign-in page.)

/**
 * The request as the browser addressed it: Next.js hands route handlers a URL naming its own listen host
 * (`localhost`), but the redirect URI registered at the provider names the host the browser used (or the proxy's
 * `X-Forwarded-Host`/`X-Forwarded-Proto`).
 */
export function asAddressed(request: Request): Request {
  const received = new URL(request.url);
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host') ?? received.host;
  const forwarded = request.headers.get('x-forwarded-proto');
  const protocol = forwarded === 'https' || forwarded === 'http' ? `${forwarded}:` : received.protocol;
  // Built whole: assigning `host` alone would keep the old port when the new host names none.
  const url = URL.parse(`${protocol}//${host}${received.pathname}${received.search}`);
  if (!url || url.href === request.url) return request; // a malformed Host header changes nothing
  return new Request(url, { method: request.method, headers: request.headers });
}
