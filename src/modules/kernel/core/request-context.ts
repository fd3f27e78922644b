// Who is asking and which request this is: read by audit everywhere. The security kernel fills `actor`
// from the session or bearer token; until then every request acts as `anonymous`.
import { randomUUID } from 'node:crypto';

export interface Actor {
  /** Username as audit rows show it; `<owner> [token: <name>]` for API tokens, `system` for the scheduler. */
  readonly name: string;
  readonly userId: string | null;
}

export interface RequestContext {
  readonly requestId: string;
  readonly actor: Actor;
  readonly sourceIp: string | null;
}

export const ANONYMOUS: Actor = { name: 'anonymous', userId: null };
const SYSTEM: Actor = { name: 'system', userId: null };

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Takes a well-formed `X-Request-Id` as given (so a proxy's id follows the request) and makes one otherwise. */
export function requestIdFrom(headers: Headers): string {
  const given = headers.get('x-request-id')?.trim();
  return given && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
}

/**
 * The client address the web server established from the socket and the trusted proxies
 * (src/server/http/client-address.ts) and always overwrites; a client's own X-Forwarded-For counts for nothing.
 */
function sourceIpFrom(headers: Headers): string | null {
  return headers.get('x-flotilla-client-address')?.trim() || null;
}

/** Whether the browser reached us over HTTPS (directly or through a proxy that says so): cookies get `Secure`. */
export function isSecure(request: Request): boolean {
  return new URL(request.url).protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
}

export function createRequestContext(headers: Headers): RequestContext {
  return { requestId: requestIdFrom(headers), actor: ANONYMOUS, sourceIp: sourceIpFrom(headers) };
}

export function systemContext(): RequestContext {
  return { requestId: randomUUID(), actor: SYSTEM, sourceIp: null };
}
