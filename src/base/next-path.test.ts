import { describe, expect, it } from 'vitest';
import { safeNextPath } from './next-path.ts';

// Redirect tricks: each must either go home or stay a path on this site, whatever origin the app runs at.
const TRICKS = [
  '//evil.example',
  '///evil.example',
  '/\\evil.example',
  '\\/evil.example',
  '\\\\evil.example',
  '/.//evil.example/phish',
  '/./\\evil.example/phish',
  '/..//evil.example',
  '/../..//evil.example',
  '/a/../..//evil.example',
  '/.%2F/evil.example',
  '/%2F%2Fevil.example',
  '/%2f%2fevil.example',
  '/%5Cevil.example',
  '/%5C%5Cevil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r\n/evil.example',
  '/.\t//evil.example',
  '/\t.//evil.example',
  ' //evil.example',
  '\t//evil.example',
  'https://evil.example/',
  'https:evil.example',
  'http:/evil.example',
  '//evil.example@app.example',
  '//app.example@evil.example',
  '/@evil.example',
  'https://app.example@evil.example/',
  '/\\app.example@evil.example',
  'javascript:alert(1)',
  'java\tscript:alert(1)',
  '/javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'audit',
  '',
];

describe('safeNextPath', () => {
  it('keeps paths on this site', () => {
    expect(safeNextPath('/audit?actor=ada#top')).toBe('/audit?actor=ada#top');
    expect(safeNextPath('/clusters/x/queues/orders%2Feu')).toBe('/clusters/x/queues/orders%2Feu');
    expect(safeNextPath('/a/./b/../c')).toBe('/a/c');
  });

  it.each([
    '//evil.example',
    '/\\evil.example',
    '/.//evil.example/phish',
    '/..//evil.example',
    '/./\\evil.example/phish',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '\\/evil.example',
    ' //evil.example',
    'https://evil.example/',
    'https://app.example@evil.example/',
    '//app.example@evil.example',
    'javascript:alert(1)',
    'audit',
    '',
    null,
    undefined,
  ])('sends %j home instead of off the site', (next) => {
    expect(safeNextPath(next)).toBe('/');
  });

  it.each(TRICKS)('keeps %j on the site, whatever its origin', (next) => {
    const result = safeNextPath(next);
    expect(result.startsWith('/') && !result.startsWith('//') && !result.startsWith('/\\')).toBe(true);
    for (const origin of ['https://app.example', 'http://127.0.0.1:3000']) {
      expect(new URL(result, origin).origin).toBe(origin);
    }
    // What comes back is already in its parsed form: checking it again changes nothing.
    expect(safeNextPath(result)).toBe(result);
  });

  it('never hands back control characters the browser would drop', () => {
    expect(safeNextPath('/au\tdit')).toBe('/audit');
    expect(safeNextPath('/\tevil.example')).toBe('/evil.example'); // a path here, once the tab is gone
  });
});
