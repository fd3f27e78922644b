import { describe, expect, it } from 'vitest';
import { catchAllSettings, parseDocument, withCatchAllSetting, withQueue } from './document-text.ts';

describe('the form over the document text', () => {
  const document = {
    addressSettings: [
      { match: 'orders.#', settings: {} },
      { match: '#', settings: { a: 1, b: 2 } },
    ],
  };

  it('sets a catch-all field in place, adds a new one last and leaves one out when cleared', () => {
    const changed = withCatchAllSetting(document, 'a', 5);
    expect(Object.entries(catchAllSettings(changed))).toEqual([
      ['a', 5],
      ['b', 2],
    ]);
    expect(Object.keys(catchAllSettings(withCatchAllSetting(document, 'c', true)))).toEqual(['a', 'b', 'c']);
    expect(catchAllSettings(withCatchAllSetting(document, 'a', undefined))).toEqual({ b: 2 });
    expect(document.addressSettings[1]?.settings).toEqual({ a: 1, b: 2 });
  });

  it('declares the catch-all setting when the document has none', () => {
    const changed = withCatchAllSetting({}, 'maxDeliveryAttempts', 3);
    expect(changed.addressSettings).toEqual([{ match: '#', settings: { maxDeliveryAttempts: 3 } }]);
    expect(withCatchAllSetting({}, 'maxDeliveryAttempts', undefined)).toEqual({});
  });

  it('declares a queue once by name', () => {
    const queue = { name: 'q1', address: 'q1', routingType: 'ANYCAST' as const, durable: true };
    const first = withQueue({}, queue);
    expect(first).toEqual({ document: { queues: [queue] } });
    expect('document' in first && withQueue(first.document, queue)).toEqual({
      error: 'The queue "q1" is declared already.',
    });
  });

  it('refuses text that is no JSON object', () => {
    expect(parseDocument('[1]')).toEqual({ error: 'The document must be a JSON object.' });
    expect('error' in parseDocument('{')).toBe(true);
  });
});
