import { describe, expect, it } from 'vitest';
import { documentTitle } from './page-header.tsx';

describe('the browser tab title', () => {
  it('names the page, then the cluster, then Flotilla', () => {
    expect(documentTitle('Queues', 'payments')).toBe('Queues · payments · Flotilla');
    expect(documentTitle('Settings')).toBe('Settings · Flotilla');
  });
});
