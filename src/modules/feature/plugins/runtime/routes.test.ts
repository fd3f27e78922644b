// Which registered route answers a request path (routes.ts): captures, literal preference, methods, odd input.
import { describe, expect, it } from 'vitest';
import { matchRoute } from './routes.ts';

const routes = [
  { method: 'GET', path: '/items/:id' },
  { method: 'GET', path: '/items/latest' },
  { method: 'post', path: '/items' },
  { method: 'GET', path: '/a/:x/b/:y' },
];

describe('matchRoute', () => {
  it('captures :name segments, decoded', () => {
    expect(matchRoute(routes, 'GET', '/items/a%20b')).toEqual({ route: routes[0], params: { id: 'a b' } });
    expect(matchRoute(routes, 'GET', '/a/1/b/2')).toEqual({ route: routes[3], params: { x: '1', y: '2' } });
  });

  it('prefers the route with more literal segments, whatever the order', () => {
    expect(matchRoute(routes, 'GET', '/items/latest')).toEqual({ route: routes[1], params: {} });
  });

  it('compares methods without case and ignores empty segments', () => {
    expect(matchRoute(routes, 'POST', '//items/')).toEqual({ route: routes[2], params: {} });
  });

  it('finds nothing for another method, another length, or another literal', () => {
    expect(matchRoute(routes, 'DELETE', '/items/1')).toBeUndefined();
    expect(matchRoute(routes, 'GET', '/items/1/more')).toBeUndefined();
    expect(matchRoute(routes, 'GET', '/a/1/c/2')).toBeUndefined();
  });

  it('keeps a malformed escape as sent instead of throwing', () => {
    expect(matchRoute(routes, 'GET', '/items/%E0%A4%A')).toEqual({ route: routes[0], params: { id: '%E0%A4%A' } });
  });
});
