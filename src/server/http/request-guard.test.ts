import { describe, expect, it } from 'vitest';
import { checkJsonText, checkUrl, hasForbiddenCharacter, jsonDepth, readBody } from './request-guard.ts';

describe('forbidden characters', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['a lone high surrogate', 'a\ud800b'],
    ['a lone low surrogate', '\udc00'],
    ['a right-to-left override', 'invoice\u202Etxt.exe'],
    ['a first-strong isolate', 'x\u2068y'],
  ])('finds %s', (_what, text) => {
    expect(hasForbiddenCharacter(text)).toBe(true);
  });

  it('lets ordinary text through, paired surrogates (emoji) and right-to-left scripts included', () => {
    for (const text of ['orders/eu', 'Zürich 🚢', 'שלום עולם', 'مرحبا', ''])
      expect(hasForbiddenCharacter(text)).toBe(false);
  });
});

describe('JSON bodies', () => {
  it('measures nesting without parsing, ignoring brackets inside strings', () => {
    expect(jsonDepth('{"a":[1,{"b":"[[[["}]}')).toBe(3);
    expect(jsonDepth('"just a string"')).toBe(0);
  });

  it('refuses a 10,000-level document before anything walks it', () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    expect(checkJsonText(deep)).toMatchObject({ status: 400, type: 'too-deeply-nested' });
  });

  it('names the field holding a forbidden character, escaped or not', () => {
    expect(checkJsonText(JSON.stringify({ name: 'ok', nested: { list: ['x', 'a\u0000'] } }))).toMatchObject({
      type: 'invalid-characters',
      errors: [{ field: 'nested.list.1' }],
    });
    expect(checkJsonText('{"username":"\\ud800"}')).toMatchObject({ errors: [{ field: 'username' }] });
    expect(checkJsonText('{"username":"ada"}')).toBeUndefined();
  });
});

describe('URLs', () => {
  it('checks decoded path segments and query values, and tRPC input', () => {
    expect(checkUrl(new URL('http://x/api/v1/users/a%00b'))).toMatchObject({ type: 'invalid-characters' });
    expect(checkUrl(new URL('http://x/api/v1/audit?actor=%E2%80%AEx'))).toMatchObject({ type: 'invalid-characters' });
    const input = encodeURIComponent(JSON.stringify({ json: { q: 'a\u0000' } }));
    expect(checkUrl(new URL(`http://x/api/trpc/users.list?input=${input}`))).toMatchObject({
      type: 'invalid-characters',
    });
    expect(checkUrl(new URL('http://x/api/v1/clusters/x/queues/orders%2Feu?q=eu'))).toBeUndefined();
  });
});

describe('reading a body', () => {
  it('refuses by Content-Length before reading a byte', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const request = new Request('http://x/', {
      method: 'POST',
      body,
      headers: { 'content-length': String(50 * 1024 * 1024) },
      duplex: 'half',
    } as RequestInit);
    expect(await readBody(request, 65_536)).toMatchObject({ problem: { status: 413, type: 'payload-too-large' } });
    expect(pulled).toBeLessThanOrEqual(1); // the stream may prime one chunk; nothing more is read
  });

  it('counts bytes when no length is given and stops at the limit', async () => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 16 * 1024;
        if (sent > 50 * 1024 * 1024) controller.close();
        else controller.enqueue(new Uint8Array(16 * 1024));
      },
    });
    const request = new Request('http://x/', { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(await readBody(request, 65_536)).toMatchObject({ problem: { status: 413 } });
    expect(sent).toBeLessThan(200 * 1024);
  });
});
