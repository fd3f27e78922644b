import { describe, expect, it } from 'vitest';
import { createRequestContext, requestIdFrom } from './request-context.ts';

describe('request context', () => {
  it('keeps a well-formed X-Request-Id and makes a UUID otherwise', () => {
    expect(requestIdFrom(new Headers({ 'X-Request-Id': 'edge-7f3a.1' }))).toBe('edge-7f3a.1');
    expect(requestIdFrom(new Headers())).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdFrom(new Headers({ 'X-Request-Id': 'bad id with spaces' }))).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdFrom(new Headers({ 'X-Request-Id': 'x'.repeat(129) }))).toHaveLength(36);
  });

  it('takes the client address from the nearest proxy and starts anonymous', () => {
    const context = createRequestContext(new Headers({ 'X-Forwarded-For': '203.0.113.9, 10.0.0.1' }));
    expect(context.sourceIp).toBe('203.0.113.9');
    expect(context.actor).toEqual({ name: 'anonymous', userId: null });
  });
});
