// Where a field a refused save named sits in the editor's text: the path (`addressSettings.0.settings.maxSizeBytes`)
// followed through the JSON by a small scanner, so the editor can underline the value (or the nearest enclosing one
// when the field is absent, e.g. a required field left out).

interface Range {
  readonly from: number;
  readonly to: number;
}

/** Skips whitespace from `at`. */
const skipSpace = (text: string, at: number) => {
  let index = at;
  while (index < text.length && /\s/.test(text[index] ?? '')) index += 1;
  return index;
};

/** The end of the JSON value starting at `at` (a string, number, literal, object or array). */
function valueEnd(text: string, at: number): number {
  const first = text[at];
  if (first === '"') {
    let index = at + 1;
    while (index < text.length && text[index] !== '"') index += text[index] === '\\' ? 2 : 1;
    return index + 1;
  }
  if (first === '{' || first === '[') {
    let depth = 0;
    let index = at;
    while (index < text.length) {
      const char = text[index];
      if (char === '"') {
        index = valueEnd(text, index);
        continue;
      }
      if (char === '{' || char === '[') depth += 1;
      if (char === '}' || char === ']') {
        depth -= 1;
        if (depth === 0) return index + 1;
      }
      index += 1;
    }
    return text.length;
  }
  let index = at;
  while (index < text.length && !/[\s,}\]]/.test(text[index] ?? '')) index += 1;
  return index;
}

/** The members of the object or array starting at `at`: each key (or index) with where its value starts. */
function members(text: string, at: number): Array<{ key: string; start: number }> {
  const found: Array<{ key: string; start: number }> = [];
  const isArray = text[at] === '[';
  let index = skipSpace(text, at + 1);
  let position = 0;
  while (index < text.length && text[index] !== '}' && text[index] !== ']') {
    let key = String(position);
    if (!isArray) {
      const keyEnd = valueEnd(text, index);
      try {
        key = String(JSON.parse(text.slice(index, keyEnd)));
      } catch {
        return found;
      }
      index = skipSpace(text, keyEnd);
      if (text[index] !== ':') return found;
      index = skipSpace(text, index + 1);
    }
    found.push({ key, start: index });
    index = skipSpace(text, valueEnd(text, index));
    if (text[index] === ',') index = skipSpace(text, index + 1);
    position += 1;
  }
  return found;
}

export function rangeOfPath(text: string, path: string): Range | undefined {
  let start = skipSpace(text, 0);
  if (start >= text.length) return undefined;
  for (const step of path ? path.split('.') : []) {
    if (text[start] !== '{' && text[start] !== '[') break;
    const member = members(text, start).find((candidate) => candidate.key === step);
    if (!member) break;
    start = member.start;
  }
  const end = valueEnd(text, start);
  // A whole object or array: only its first line, so the mark stays readable.
  const newline = text.indexOf('\n', start);
  return { from: start, to: newline > start && newline < end ? newline : end };
}
