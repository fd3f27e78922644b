import { describe, expect, it } from 'vitest';
import { safeNextPath } from './next-path.ts';

describe('safeNextPath', () => {
  it('keeps paths on this site', () => {
    expect(safeNextPath('/audit?actor=ada#top')).toBe('/audit?actor=ada#top');
    expect(safeNextPath('/clusters/x/queues/orders%2Feu')).toBe('/clusters/x/queues/orders%2Feu');
  });

  it.each([
    '//evil.example',
    '/\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '\\/evil.example',
    ' //evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    'audit',
    '',
    null,
    undefined,
  ])('sends %j home instead of off the site', (next) => {
    expect(safeNextPath(next)).toBe('/');
  });

  it('never hands back control characters the browser would drop', () => {
    expect(safeNextPath('/au\tdit')).toBe('/audit');
    expect(safeNextPath('/\tevil.example')).toBe('/evil.example'); // a path here, once the tab is gone
  });
});
