import { describe, expect, it } from 'vitest';
import type { MessageView } from './message-fields.ts';
import { nodeOptions, pageRows, pageTotal, searchText } from './message-page.ts';

const message = (messageId: string, text: string | null, kind: MessageView['body']['kind'] = 'text'): MessageView => ({
  messageId,
  position: null,
  headers: {},
  properties: { region: 'eu' },
  propertyTypes: {},
  body: {
    kind,
    encoding: 'base64',
    base64: text === null ? null : Buffer.from(text, 'utf8').toString('base64'),
    sizeBytes: text?.length ?? 0,
    contentType: null,
    withheldReason: null,
  },
  bodyTruncated: false,
  truncatedFields: [],
  redactions: [],
});

describe('the message browser’s page', () => {
  it('keys each row by its place in the queue and its id, so equal ids stay apart', () => {
    const rows = pageRows([message('7', 'a'), message('7', 'b')], 25);
    expect(rows.map((row) => row.key)).toEqual(['25:7', '26:7']);
  });

  it('searches the id, the properties and a text body, but not a binary one', () => {
    const [text, binary] = pageRows([message('ID:1', 'Order Shipped'), message('ID:2', 'hidden', 'binary')], 0).map(
      searchText,
    );
    expect(text).toContain('order shipped');
    expect(text).toContain('"region":"eu"');
    expect(binary).not.toContain('hidden');
  });

  it('pages by what was read past the last page, else by the scrape’s count or one more', () => {
    expect(pageTotal({ hasMore: false, read: 30, matched: undefined, nodeCount: 500 })).toBe(30);
    expect(pageTotal({ hasMore: true, read: 25, matched: undefined, nodeCount: 500 })).toBe(500);
    expect(pageTotal({ hasMore: true, read: 25, matched: undefined, nodeCount: undefined })).toBe(26);
    expect(pageTotal({ hasMore: true, read: 25, matched: undefined, nodeCount: 3 })).toBe(26);
    expect(pageTotal({ hasMore: true, read: 25, matched: 2, nodeCount: 500 })).toBe(2);
  });

  it('names each node by its broker and marks one not serving', () => {
    expect(
      nodeOptions([
        { nodeId: 'n1', brokerName: 'broker-1', serving: true },
        { nodeId: 'n2', brokerName: null, serving: false },
      ]),
    ).toEqual([
      { value: 'n1', label: 'broker-1' },
      { value: 'n2', label: 'n2 (not serving)' },
    ]);
  });
});
