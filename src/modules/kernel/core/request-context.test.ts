import { describe, expect, it } from 'vitest';
import { createRequestContext, requestIdFrom } from './request-context.ts';

describe('request context', () => {
  it('keeps a well-formed X-Request-Id and makes a UUID otherwise', () => {
    expect(requestIdFrom(new Headers({ 'X-Request-Id': 'edge-7f3a.1' }))).toBe('edge-7f3a.1');
    expect(requestIdFrom(new Headers())).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdFrom(new Headers({ 'X-Request-Id': 'bad id with spaces' }))).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdFrom(new Headers({ 'X-Request-Id': 'x'.repeat(129) }))).toHaveLength(36);
  });

  it('takes the client address the web server established, never X-Forwarded-For, and starts anonymous', () => {
    expect(createRequestContext(new Headers({ 'X-Forwarded-For': '203.0.113.9' })).sourceIp).toBeNull();
    const context = createRequestContext(
      new Headers({ 'X-Flotilla-Client-Address': '203.0.113.9', 'X-Forwarded-For': '192.0.2.1' }),
    );
    expect(context.sourceIp).toBe('203.0.113.9');
    expect(context.actor).toEqual({ name: 'anonymous', userId: null });
  });
});
