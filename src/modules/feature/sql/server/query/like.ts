// LIKE as PostgreSQL reads it: % any run of characters, _ exactly one character (a code point, newlines included),
// the escape character makes the next character literal. Patterns are compiled once per predicate.

const compiled = new Map<string, RegExp>();
const MAX_CACHED = 500;

export function likeMatches(value: string, pattern: string, escape: string | undefined): boolean {
  const cacheKey = `${escape ?? ''}\u0000${pattern}`;
  let regex = compiled.get(cacheKey);
  if (!regex) {
    regex = likeRegex(pattern, escape);
    if (compiled.size >= MAX_CACHED) compiled.clear();
    compiled.set(cacheKey, regex);
  }
  return regex.test(value);
}

function likeRegex(pattern: string, escape: string | undefined): RegExp {
  let source = '';
  const characters = Array.from(pattern);
  for (let index = 0; index < characters.length; index += 1) {
    const character = characters[index] ?? '';
    if (escape !== undefined && character === escape) {
      index += 1;
      source += literal(characters[index] ?? '');
    } else if (character === '%') source += '.*';
    else if (character === '_') source += '.';
    else source += literal(character);
  }
  return new RegExp(`^${source}$`, 'su');
}

function literal(character: string): string {
  return character.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
