// A small XML scanner for masking: it walks the document's tags, keeping the path of open elements, and hands each
// text node and attribute value with its element path to `visit`, which may replace it; everything else is kept
// byte for byte (the document is copied only around replacements). It checks that tags balance and refuses what
// is not well-formed, so the policy fails closed. A parser plus a serializer would rewrite the whole document and
// is several times slower (ADR 14). A `>` inside an attribute value is not supported (it ends the tag).

export class XmlError extends Error {}

const NAME = /^[A-Za-z_:][\w:.-]*/;
const ATTRIBUTE = /([A-Za-z_:][\w:.-]*)(\s*=\s*)(["'])([^]*?)\3/g;

/** `visit(text, path, attribute)` answers the replacement, or undefined to keep the text. */
export function rewriteXml(
  xml: string,
  visit: (text: string, path: readonly string[], attribute: string | undefined) => string | undefined,
): string {
  const stack: string[] = [];
  const pieces: string[] = [];
  let copiedTo = 0;
  const replace = (start: number, end: number, replacement: string) => {
    pieces.push(xml.slice(copiedTo, start), replacement);
    copiedTo = end;
  };
  let index = 0;
  const length = xml.length;
  while (index < length) {
    const open = xml.indexOf('<', index);
    const textEnd = open === -1 ? length : open;
    if (textEnd > index && stack.length > 0) {
      const text = xml.slice(index, textEnd);
      if (text.trim() !== '') {
        const replaced = visit(text, stack, undefined);
        if (replaced !== undefined) replace(index, textEnd, replaced);
      }
    }
    if (open === -1) break;
    const next = xml.charCodeAt(open + 1);
    if (next === 33 /* ! */ && xml.startsWith('<!--', open)) {
      const close = xml.indexOf('-->', open + 4);
      if (close === -1) throw new XmlError('an unclosed comment');
      index = close + 3;
      continue;
    }
    if (next === 33 && xml.startsWith('<![CDATA[', open)) {
      const close = xml.indexOf(']]>', open + 9);
      if (close === -1) throw new XmlError('an unclosed CDATA section');
      if (stack.length > 0) {
        const replaced = visit(xml.slice(open + 9, close), stack, undefined);
        if (replaced !== undefined) replace(open + 9, close, replaced);
      }
      index = close + 3;
      continue;
    }
    const close = xml.indexOf('>', open + 1);
    if (close === -1) throw new XmlError('an unclosed tag');
    if (next === 63 /* ? */ || next === 33) {
      index = close + 1;
      continue;
    }
    if (next === 47 /* / */) {
      const name = xml.slice(open + 2, close).trim();
      if (stack.pop() !== name) throw new XmlError(`a closing </${name}> that does not match its opening tag`);
      index = close + 1;
      continue;
    }
    const selfClosing = xml.charCodeAt(close - 1) === 47;
    const body = xml.slice(open + 1, selfClosing ? close - 1 : close);
    const name = NAME.exec(body)?.[0];
    if (!name) throw new XmlError('a tag without a name');
    if (body.includes('=', name.length)) {
      const path = [...stack, name];
      ATTRIBUTE.lastIndex = name.length;
      for (let match = ATTRIBUTE.exec(body); match; match = ATTRIBUTE.exec(body)) {
        const [, attribute = '', equals = '', , value = ''] = match;
        const replaced = visit(value, path, attribute);
        if (replaced === undefined) continue;
        const valueStart = open + 1 + match.index + attribute.length + equals.length + 1;
        replace(valueStart, valueStart + value.length, replaced);
      }
    }
    if (!selfClosing) stack.push(name);
    index = close + 1;
  }
  if (stack.length > 0) throw new XmlError(`<${stack.at(-1) ?? ''}> is never closed`);
  if (pieces.length === 0) return xml;
  pieces.push(xml.slice(copiedTo));
  return pieces.join('');
}
