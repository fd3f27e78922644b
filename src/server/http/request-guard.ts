// What every API request body and input passes before any procedure sees it: a size limit (by Content-Length
// before a byte is read, and by counting when the length is absent), a nesting limit (a 10,000-deep document
// overflows the stack of whatever walks it), and characters no input may carry: NUL, lone surrogates, and the
// bidirectional overrides and isolates that make a name read differently on screen than it is stored. One check
// at the edge covers every string of every input, so no schema can forget it.
import { decodeSegment } from '@/base/path-segment.ts';
import type { TrpcContext } from '@/modules/kernel/access/index.ts';
import { CORE_SETTINGS, type Problem } from '@/modules/kernel/core/index.ts';
import type { WebRuntime } from '../runtime/web-runtime.ts';

const MAX_DEPTH = 64;

/** Anonymous callers send sign-ins and little else: they get this much, whatever the setting allows others. */
const ANONYMOUS_BODY_LIMIT = 64 * 1024;

// No `u` flag on purpose: the lookarounds must see UTF-16 code units to find a surrogate without its partner.
const FORBIDDEN =
  /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[\u202a-\u202e\u2066-\u2069]/;

function tooLargeProblem(limit: number): Problem {
  return {
    type: 'payload-too-large',
    title: 'Request body too large',
    status: 413,
    detail: `The request body is larger than ${limit} bytes (http.max-body-bytes; anonymous callers ${ANONYMOUS_BODY_LIMIT}).`,
    limit,
  };
}

function invalidCharacters(where: string): Problem {
  return {
    type: 'invalid-characters',
    title: 'Invalid characters',
    status: 400,
    detail:
      `${where} holds a character no input may: NUL, a lone surrogate, or a bidirectional override or isolate ` +
      '(U+202A–U+202E, U+2066–U+2069).',
    errors: [{ field: where, message: 'holds a forbidden character' }],
  };
}

export function hasForbiddenCharacter(text: string): boolean {
  return FORBIDDEN.test(text);
}

/**
 * The body as text, read only when it fits the limit. Undefined body: none was sent. The stream is cancelled as
 * soon as the limit is passed, so an oversized upload is never held in memory.
 */
export async function readBody(request: Request, limit: number): Promise<{ text: string } | { problem: Problem }> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) return { problem: tooLargeProblem(limit) };
  if (!request.body) return { text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return { problem: tooLargeProblem(limit) };
    }
    chunks.push(value);
  }
  return { text: Buffer.concat(chunks).toString('utf8') };
}

/** How deeply arrays and objects nest in a JSON text, without parsing it (strings skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') deepest = Math.max(deepest, ++depth);
    else if (char === '}' || char === ']') depth--;
  }
  return deepest;
}

function firstForbiddenString(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return hasForbiddenCharacter(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = firstForbiddenString(item, `${path}.${index}`);
      if (found) return found;
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const found = hasForbiddenCharacter(key) ? `${path}.${key}` : firstForbiddenString(item, `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

/** The problem with a JSON body's text, if any: too deep, malformed is left to the caller, bad characters. */
export function checkJsonText(text: string, where = 'body'): Problem | undefined {
  if (text.trim() === '') return undefined;
  if (jsonDepth(text) > MAX_DEPTH) {
    return {
      type: 'too-deeply-nested',
      title: 'Input nested too deeply',
      status: 400,
      detail: `Arrays and objects may nest at most ${MAX_DEPTH} levels deep.`,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined; // the procedures' edge answers malformed JSON with its own problem
  }
  const found = firstForbiddenString(parsed, where);
  return found ? invalidCharacters(found.replace(/^body\.?/, '') || where) : undefined;
}

/** The URL's path segments and query values, decoded, checked for the same characters. */
export function checkUrl(url: URL): Problem | undefined {
  for (const segment of url.pathname.split('/')) {
    if (hasForbiddenCharacter(decodeSegment(segment))) return invalidCharacters('path');
  }
  for (const [name, value] of url.searchParams) {
    if (name === 'input') {
      const problem = checkJsonText(value, 'input');
      if (problem) return problem;
    } else if (hasForbiddenCharacter(name) || hasForbiddenCharacter(value)) return invalidCharacters(name);
  }
  return undefined;
}

/** The body limit for this caller: the setting when signed in, the anonymous limit (or less) otherwise. */
export function bodyLimit(
  runtime: WebRuntime,
  caller: Pick<TrpcContext, 'principal'>,
  request?: { readonly method: string; readonly url: string },
): number {
  const limit = runtime.settings.integer(CORE_SETTINGS.maxBodyBytes);
  if (!caller.principal) return Math.min(limit, ANONYMOUS_BODY_LIMIT);
  // A module's declared larger limit for one endpoint (an archive upload), for signed-in callers only.
  const large = request && runtime.registry.largeBodyLimit(request.method, new URL(request.url).pathname);
  return Math.max(limit, large ?? 0);
}

/** Reads the body within the limit and checks it; answers a request carrying the same body, now buffered. */
export async function guardBody(request: Request, limit: number): Promise<{ request: Request } | { problem: Problem }> {
  if (request.method === 'GET' || request.method === 'HEAD') return { request };
  const body = await readBody(request, limit);
  if ('problem' in body) return body;
  const problem = checkJsonText(body.text);
  if (problem) return { problem };
  const headers = new Headers(request.headers);
  headers.delete('content-length');
  return {
    request: new Request(request.url, {
      method: request.method,
      headers,
      body: body.text === '' ? undefined : body.text,
      signal: request.signal,
    }),
  };
}
