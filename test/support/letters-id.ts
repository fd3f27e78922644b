// Ids for test traffic that the content policy leaves alone: a UUID's digits can read as a phone number
// ("67827268-7048"), and a screen then shows it masked, which a test comparing ids takes for a wrong id.
import { randomBytes } from 'node:crypto';

/** `<prefix>-` and sixteen random lower-case letters. */
export function lettersOnlyId(prefix: string): string {
  return `${prefix}-${[...randomBytes(16)].map((byte) => String.fromCharCode(97 + (byte % 26))).join('')}`;
}
