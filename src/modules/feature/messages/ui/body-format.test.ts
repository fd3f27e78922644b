import { describe, expect, it } from 'vitest';
import { bytesOf, formatBytes, hexDump, prettyJson, prettyXml, textOf } from './body-format.ts';

describe('the body viewer’s formats', () => {
  it('decodes base64 to bytes and UTF-8 text', () => {
    const bytes = bytesOf(Buffer.from('héllo ✓', 'utf8').toString('base64'));
    expect(textOf(bytes)).toBe('héllo ✓');
  });

  it('pretty-prints JSON and leaves what does not parse as it is', () => {
    expect(prettyJson('{"a":1,"b":[true]}')).toBe('{\n  "a": 1,\n  "b": [\n    true\n  ]\n}');
    expect(prettyJson('{not json')).toBe('{not json');
  });

  it('indents XML, an element holding only text on one line', () => {
    const xml = '<?xml version="1.0"?><order id="7"><item>tea</item><empty/><note></note><!-- c --></order>';
    expect(prettyXml(xml)).toBe(
      [
        '<?xml version="1.0"?>',
        '<order id="7">',
        '  <item>tea</item>',
        '  <empty/>',
        '  <note></note>',
        '  <!-- c -->',
        '</order>',
      ].join('\n'),
    );
  });

  it('dumps bytes as hex with offsets and the printable characters', () => {
    const bytes = new Uint8Array([...Buffer.from('Hello world\n'), 0, 255, 16, 32, 65]);
    expect(hexDump(bytes).split('\n')).toEqual([
      '00000000  48 65 6c 6c 6f 20 77 6f  72 6c 64 0a 00 ff 10 20  |Hello world.... |',
      '00000010  41                                                |A|',
    ]);
    expect(hexDump(bytes, 4)).toBe('00000000  48 65 6c 6c                                       |Hell|');
  });

  it('says sizes in bytes and binary units', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MiB');
  });
});
