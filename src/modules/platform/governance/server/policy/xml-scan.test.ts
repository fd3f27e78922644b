import { describe, expect, it } from 'vitest';
import { rewriteXml, XmlError } from './xml-scan.ts';

const upper = (text: string) => (/\d/.test(text) ? text.toUpperCase().replace(/\d/g, '#') : undefined);

describe('the XML scanner', () => {
  it('replaces text, CDATA and attribute values in place and keeps everything else byte for byte', () => {
    const xml = '<?xml version="1.0"?>\n<a x="1" y=\'z\'><b/><c><![CDATA[card 42]]></c><!-- 7 --><d>n 9</d></a>';
    const paths: string[] = [];
    const out = rewriteXml(xml, (text, path, attribute) => {
      paths.push(`${path.join('/')}${attribute ? `@${attribute}` : ''}`);
      return upper(text);
    });
    expect(out).toBe('<?xml version="1.0"?>\n<a x="#" y=\'z\'><b/><c><![CDATA[CARD ##]]></c><!-- 7 --><d>N #</d></a>');
    expect(paths).toEqual(['a@x', 'a@y', 'a/c', 'a/d']);
  });

  it('answers the very same string when nothing is replaced', () => {
    const xml = '<a><b>text</b></a>';
    expect(rewriteXml(xml, () => undefined)).toBe(xml);
  });

  it.each(['<a><b></a>', '<a>', '<a><!-- open</a>', '</a>', '<>x</>'])('refuses %s as not well-formed', (xml) => {
    expect(() => rewriteXml(xml, () => undefined)).toThrow(XmlError);
  });
});
