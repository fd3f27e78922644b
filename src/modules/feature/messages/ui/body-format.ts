// Pure helpers of the body viewer: base64 to bytes, bytes to text, JSON and XML pretty-printed, and a hex dump
// with offsets. No DOM, so they are tested on their own (body-format.test.ts).

export function bytesOf(base64: string): Uint8Array {
  const binary = atob(base64.replace(/\s/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** UTF-8, with U+FFFD where the bytes are not (a cut body may end inside a character). */
export function textOf(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

/** Two-space indentation; the text as it is when it does not parse. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

const TOKEN = /(<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|<[^>]*>)/g;

type XmlToken = { kind: 'open' | 'close' | 'self' | 'other' | 'text'; text: string };

function xmlTokens(xml: string): XmlToken[] {
  return xml
    .split(TOKEN)
    .filter((part) => part.trim() !== '')
    .map((part): XmlToken => {
      if (!part.startsWith('<')) return { kind: 'text', text: part.trim() };
      if (part.startsWith('</')) return { kind: 'close', text: part };
      if (part.startsWith('<?') || part.startsWith('<!')) return { kind: 'other', text: part };
      if (part.endsWith('/>')) return { kind: 'self', text: part };
      return { kind: 'open', text: part };
    });
}

/**
 * Simple indentation: one element or text per line, two spaces a level, an element holding only text on one line.
 * Not a parser: a document that is not well formed comes out indented as far as its tags go.
 */
export function prettyXml(xml: string): string {
  const tokens = xmlTokens(xml);
  const lines: string[] = [];
  let depth = 0;
  const pad = () => '  '.repeat(Math.max(0, depth));
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] as XmlToken;
    const next = tokens[index + 1];
    const after = tokens[index + 2];
    if (token.kind === 'open' && next?.kind === 'text' && after?.kind === 'close') {
      lines.push(`${pad()}${token.text}${next.text}${after.text}`);
      index += 2;
    } else if (token.kind === 'open' && next?.kind === 'close') {
      lines.push(`${pad()}${token.text}${next.text}`);
      index += 1;
    } else if (token.kind === 'close') {
      depth -= 1;
      lines.push(`${pad()}${token.text}`);
    } else {
      lines.push(`${pad()}${token.text}`);
      if (token.kind === 'open') depth += 1;
    }
  }
  return lines.join('\n');
}

const hex = (value: number, width: number) => value.toString(16).padStart(width, '0');
const printable = (byte: number) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.');

/** `00000010  48 65 6c 6c 6f 20 77 6f  72 6c 64 0a              |Hello world.|`, 16 bytes a line. */
export function hexDump(bytes: Uint8Array, limit = bytes.length): string {
  const lines: string[] = [];
  const end = Math.min(bytes.length, limit);
  for (let offset = 0; offset < end; offset += 16) {
    const row = bytes.subarray(offset, Math.min(offset + 16, end));
    const cells = Array.from({ length: 16 }, (_, index) => {
      const byte = row[index];
      return byte === undefined ? '  ' : hex(byte, 2);
    });
    const left = cells.slice(0, 8).join(' ');
    const right = cells.slice(8).join(' ');
    lines.push(`${hex(offset, 8)}  ${left}  ${right}  |${Array.from(row, printable).join('')}|`);
  }
  return lines.join('\n');
}

/** 1 536 → "1.5 KiB". */
export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = size / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit] ?? 'GiB'}`;
}
