// Detectors find sensitive values in free text by shape and, where the value has one, by its checksum: card numbers
// (known issuer prefixes and lengths, Luhn; spaced and dashed forms too), IBANs (country length, mod 97), emails,
// international phone numbers, bearer tokens, JWTs and private keys. Checksums and issuer prefixes are what keep
// ordinary ids and timestamps (a 13-digit epoch millisecond starts with 1, which no card issuer uses) from matching.
// Case is ignored wherever the format ignores it (IBAN letters, `Bearer`/`Basic`, emails); JWTs (base64url) and PEM
// armour are case-sensitive by format, and cards and phones are digits.
import type { DataClass } from './data-classes.ts';

export interface Detection {
  readonly detector: DetectorId;
  readonly dataClass: DataClass;
  readonly start: number;
  readonly end: number;
}

export const DETECTOR_IDS = ['card', 'iban', 'email', 'phone', 'bearer', 'jwt', 'private-key'] as const;
export type DetectorId = (typeof DETECTOR_IDS)[number];

interface Detector {
  readonly id: DetectorId;
  readonly dataClass: DataClass;
  readonly description: string;
  /** A cheap test the text must pass before the pattern runs (most payloads hold no '@', no 'eyJ' …). */
  readonly mayContain: (text: string) => boolean;
  /** The shape, or (for shapes a regular expression finds slowly) a search of its own giving [start, end] pairs. */
  readonly pattern: RegExp | ((text: string) => Array<[number, number]>);
  /** The checksum or other check of a match; absent when the shape is enough. */
  readonly valid?: (match: string) => boolean;
}

/** Whether the text holds at least `least` digits (a card needs 12, an IBAN or a phone 8). */
function hasDigits(text: string, least: number): boolean {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57 && ++count >= least) return true;
  }
  return false;
}

/** Whether the text holds a run of at least `least` digits, single spaces or dashes allowed between them (a card). */
function hasDigitRun(text: string, least: number): boolean {
  let run = 0;
  let separated = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) {
      run += 1;
      separated = false;
      if (run >= least) return true;
    } else if ((code === 32 || code === 45) && run > 0 && !separated) {
      separated = true;
    } else {
      run = 0;
      separated = false;
    }
  }
  return false;
}

/** Luhn over the digits of a value (separators ignored). */
function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index--) {
    let digit = digits.charCodeAt(index) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Issuer prefixes with their lengths: Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay, Maestro. */
function knownIssuer(digits: string): boolean {
  const length = digits.length;
  const two = Number(digits.slice(0, 2));
  const three = Number(digits.slice(0, 3));
  const four = Number(digits.slice(0, 4));
  const six = Number(digits.slice(0, 6));
  if (digits.startsWith('4')) return length === 13 || length === 16 || length === 19;
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return length === 16;
  if (two === 34 || two === 37) return length === 15;
  if (four === 6011 || two === 65 || (three >= 644 && three <= 649) || (six >= 622126 && six <= 622925))
    return length >= 16 && length <= 19;
  if (four >= 3528 && four <= 3589) return length >= 16 && length <= 19;
  if (two === 36 || two === 38 || two === 39 || (three >= 300 && three <= 305)) return length >= 14 && length <= 19;
  if (two === 62) return length >= 16 && length <= 19;
  if (two === 50 || (two >= 56 && two <= 69)) return length >= 12 && length <= 19;
  return false;
}

export function cardNumberValid(match: string): boolean {
  const digits = match.replace(/[ -]/g, '');
  return digits.length >= 12 && digits.length <= 19 && knownIssuer(digits) && luhnValid(digits);
}

/** IBAN lengths by country (ISO 13616 registry), for the countries most payments name. */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, CH: 21, CR: 22, CY: 28, CZ: 24, DE: 22,
  DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28,
  HR: 21, HU: 28, IE: 22, IL: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LI: 21, LT: 20, LU: 20, LV: 21,
  MC: 27, MD: 24, ME: 22, MK: 19, MR: 27, MT: 31, MU: 30, NL: 18, NO: 15, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29,
  RO: 24, RS: 22, SA: 24, SE: 24, SI: 19, SK: 24, SM: 27, TN: 24, TR: 26, UA: 29, VG: 24, XK: 20,
}; // prettier-ignore

export function ibanValid(match: string): boolean {
  const iban = match.replace(/ /g, '').toUpperCase();
  if (IBAN_LENGTHS[iban.slice(0, 2)] !== iban.length) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  // mod 97 over the digits (A = 10 … Z = 35), a few digits at a time so nothing overflows.
  let remainder = 0;
  for (const character of rearranged) {
    const code = character.charCodeAt(0);
    const value = code >= 65 ? String(code - 55) : character;
    remainder = Number(String(remainder) + value) % 97;
  }
  return remainder === 1;
}

const LOCAL_PART = /[A-Za-z0-9._%+-]/;
const DOMAIN_PART = /[A-Za-z0-9.-]/;
const EMAIL = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;

/** Emails found from each '@' outwards: a pattern scanning every word of a long text for one is much slower. */
function findEmails(text: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > 0 && LOCAL_PART.test(text[start - 1] ?? '')) start--;
    let end = at + 1;
    while (end < text.length && DOMAIN_PART.test(text[end] ?? '')) end++;
    // A sentence's full stop is not part of the domain.
    while (end > at + 1 && text[end - 1] === '.') end--;
    if (start < at && EMAIL.test(text.slice(start, end))) found.push([start, end]);
  }
  return found;
}

const DETECTORS: readonly Detector[] = [
  {
    id: 'private-key',
    dataClass: 'credential',
    description: 'PEM private keys (RSA, EC, OpenSSH, PKCS#8, encrypted)',
    mayContain: (text) => text.includes('PRIVATE KEY-----'),
    pattern: /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----[\s\S]*?-----END (?:[A-Z]+ )*PRIVATE KEY-----/g,
  },
  {
    id: 'jwt',
    dataClass: 'credential',
    description: 'JSON Web Tokens (three base64url parts, the first two JSON objects)',
    mayContain: (text) => text.includes('eyJ'),
    pattern: /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g,
  },
  {
    id: 'bearer',
    dataClass: 'credential',
    description: 'Bearer and Basic credentials as sent in an Authorization header',
    mayContain: (text) => /bearer |basic /i.test(text),
    pattern: /\b(?:Bearer|Basic) [A-Za-z0-9._~+/-]{8,}=*/gi,
  },
  {
    id: 'card',
    dataClass: 'payment-card',
    description: 'Payment card numbers of known issuers passing Luhn, also in groups spaced or dashed',
    mayContain: (text) => text.length >= 12 && hasDigitRun(text, 12),
    // Not inside a longer number, nor a group of one (`12-4111…`); a dash after a word is a separator in a name
    // (`orders-4111…`), so only a dash between digits joins.
    pattern: /(?<!\d)(?<!\d-)(?:\d[ -]?){11,18}\d(?!\d)(?!-\d)/g,
    valid: cardNumberValid,
  },
  {
    id: 'iban',
    dataClass: 'bank-account',
    description: 'IBANs of 70 countries with their length, passing mod 97, also in groups of four',
    // Letters in either case (an IBAN typed or stored in lower case is the same account); bounded by anything
    // that is not a letter or digit, so `iban_de89…` in a name is found too.
    mayContain: (text) => text.length >= 15 && hasDigits(text, 8) && /[A-Z]{2}\d{2}/i.test(text),
    pattern: /(?<![A-Z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?![A-Z0-9])/gi,
    valid: ibanValid,
  },
  {
    id: 'email',
    dataClass: 'personal-contact',
    description: 'Email addresses',
    mayContain: (text) => text.includes('@'),
    pattern: findEmails,
  },
  {
    id: 'phone',
    dataClass: 'personal-contact',
    description: 'International phone numbers (+ and country code, 8 to 15 digits)',
    mayContain: (text) => text.includes('+') && hasDigits(text, 8),
    pattern: /(?<![\w+])\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}(?!\d)/g,
    valid: (match) => {
      const digits = match.replace(/\D/g, '').length;
      return digits >= 8 && digits <= 15;
    },
  },
];

export function detectorCatalogue(): ReadonlyArray<{ id: DetectorId; dataClass: DataClass; description: string }> {
  return DETECTORS.map(({ id, dataClass, description }) => ({ id, dataClass, description }));
}

/**
 * Every detection in the text by the enabled detectors, earliest first, without overlaps (a match inside an
 * earlier one is dropped: a JWT is not also a bearer token's tail).
 */
export function detect(text: string, enabled: ReadonlySet<DetectorId>): Detection[] {
  if (text.length < 6) return [];
  const found: Detection[] = [];
  for (const detector of DETECTORS) {
    if (!enabled.has(detector.id) || !detector.mayContain(text)) continue;
    const pattern = detector.pattern;
    if (typeof pattern === 'function') {
      for (const [start, end] of pattern(text)) {
        found.push({ detector: detector.id, dataClass: detector.dataClass, start, end });
      }
      continue;
    }
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      if (detector.valid && !detector.valid(match[0])) {
        // A shape that fails its check may hide a valid one starting inside it (`ref 12 4111 1111 1111 1111`).
        pattern.lastIndex = match.index + 1;
        continue;
      }
      found.push({
        detector: detector.id,
        dataClass: detector.dataClass,
        start: match.index,
        end: match.index + match[0].length,
      });
    }
  }
  if (found.length < 2) return found;
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Detection[] = [];
  for (const detection of found) {
    const last = kept.at(-1);
    if (last && detection.start < last.end) continue;
    kept.push(detection);
  }
  return kept;
}
