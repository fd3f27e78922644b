import { describe, expect, it } from 'vitest';
import { UNKNOWABLE, evaluateSelector, type SelectorLookup } from './selector-eval.ts';
import { SelectorSyntaxError, tokenize } from './selector-lexer.ts';
import { parseSelector, type Literal } from './selector-parser.ts';

const message: Record<string, Literal> = {
  color: 'red',
  Color: 'blue',
  size: 5,
  weight: 2.5,
  big: 9_000_000_000,
  urgent: true,
  archived: false,
  text5: '5',
  path: 'a_b%c',
  multiline: 'one\ntwo',
  nothing: null,
};

const lookup: SelectorLookup = (name) => (Object.hasOwn(message, name) ? (message[name] ?? null) : null);

function result(selector: string, read: SelectorLookup = lookup) {
  return evaluateSelector(parseSelector(selector), read).result;
}

function selects(selector: string): boolean {
  return evaluateSelector(parseSelector(selector), lookup).selected;
}

function syntaxError(selector: string): SelectorSyntaxError {
  try {
    parseSelector(selector);
  } catch (error) {
    expect(error).toBeInstanceOf(SelectorSyntaxError);
    return error as SelectorSyntaxError;
  }
  throw new Error(`parsed: ${selector}`);
}

describe('lexer', () => {
  it('reads numbers in every form the grammar has', () => {
    const values = tokenize('10 10L 0x1F 017 0 1.5 5. .5 5E2 1.5e-1').map((token) => token.value);
    expect(values).toEqual([10, 10, 31, 15, 0, 1.5, 5, 0.5, 500, 0.15, undefined]);
  });

  it('reads quoted strings and identifiers with doubled quotes, keywords in any case, and skips comments', () => {
    const tokens = tokenize(`"my ""prop""" = 'it''s' -- trailing\n/* block */ and`);
    expect(tokens.map((token) => [token.kind, token.text])).toEqual([
      ['identifier', 'my "prop"'],
      ['operator', '='],
      ['string', "it's"],
      ['keyword', 'AND'],
      ['end', ''],
    ]);
  });

  it('refuses what is not a token, with the position', () => {
    expect(syntaxError("color = 'red").offset).toBe(8);
    expect(syntaxError('size = 09').reason).toMatch(/Not a number/);
    expect(syntaxError('size # 2').offset).toBe(5);
    expect(syntaxError('a = 1 /* open').reason).toMatch(/comment is not closed/);
  });
});

describe('parser', () => {
  it('gives AND precedence over OR, and comparison over equality', () => {
    expect(parseSelector('a OR b AND c')).toMatchObject({ kind: 'or', operands: [{ name: 'a' }, { kind: 'and' }] });
    expect(parseSelector('size + 1 * 2 = 7')).toMatchObject({
      kind: 'compare',
      left: { kind: 'arithmetic', operator: '+', right: { kind: 'arithmetic', operator: '*' } },
    });
  });

  it('binds NOT as tightly as unary minus, as Artemis does', () => {
    expect(parseSelector("NOT color = 'red'")).toMatchObject({ kind: 'compare', left: { kind: 'not' } });
    expect(parseSelector("NOT (color = 'red')")).toMatchObject({ kind: 'not', operand: { kind: 'compare' } });
  });

  it('refuses what the broker refuses, saying where and why', () => {
    expect(syntaxError('').reason).toMatch(/empty/);
    expect(syntaxError('color = NULL').reason).toMatch(/IS NULL/);
    expect(syntaxError("color > 'a'").reason).toMatch(/cannot be ordered/);
    expect(syntaxError('TRUE = 1').reason).toMatch(/cannot be compared/);
    expect(syntaxError('size + 1').reason).toMatch(/not a condition/);
    expect(syntaxError('size IN (1, 2)').reason).toMatch(/IN takes strings only/);
    expect(syntaxError("'a' IN ('a')").reason).toMatch(/property name/);
    expect(syntaxError("color LIKE 'a' ESCAPE 'ab'").reason).toMatch(/exactly one character/);
    expect(syntaxError('size BETWEEN 1 OR 2').reason).toMatch(/AND in BETWEEN/);
    const dangling = syntaxError('color = ');
    expect(dangling.offset).toBe(8);
    expect(dangling.message).toMatch(/found the end of the selector \(at character 9\)/);
    expect(syntaxError('(size = 1').reason).toMatch(/closing \)/);
    expect(syntaxError('size = 1 size = 2').reason).toMatch(/an operator or the end/);
  });
});

describe('evaluation', () => {
  it('compares strings case-sensitively and identifiers by exact name', () => {
    expect(selects("color = 'red'")).toBe(true);
    expect(selects("color = 'RED'")).toBe(false);
    expect(selects("Color = 'blue'")).toBe(true);
    expect(selects("COLOR = 'red'")).toBe(false);
  });

  it('compares numbers across integer and floating point, and different types as FALSE', () => {
    expect(selects('size = 5.0')).toBe(true);
    expect(selects('weight > 2 AND weight < 3')).toBe(true);
    expect(selects('big > 2147483647')).toBe(true);
    expect(result("size = '5'")).toBe(false);
    expect(result('text5 = 5')).toBe(false);
    expect(result('urgent = 1')).toBe(false);
    // FALSE, so its negation selects: a type mismatch is not unknown.
    expect(selects('text5 <> 5')).toBe(true);
  });

  it('does arithmetic with precedence, floating-point division and string concatenation', () => {
    expect(selects('size + 1 * 2 = 7')).toBe(true);
    expect(selects('(size + 1) * 2 = 12')).toBe(true);
    expect(selects('size / 2 = 2.5')).toBe(true);
    expect(selects('size % 2 = 1')).toBe(true);
    expect(selects('-size = -5 AND - -size = 5 AND +size = 5')).toBe(true);
    expect(selects("color + 'ish' = 'redish'")).toBe(true);
  });

  it('fails the whole filter on arithmetic over a non-number, even under NOT', () => {
    const verdict = evaluateSelector(parseSelector('NOT (urgent * 2 = 4)'), lookup);
    expect(verdict.selected).toBe(false);
    expect(verdict.failure).toMatch(/not numbers/);
  });

  it('uses three-valued logic: missing values are unknown and never select, NOT unknown is unknown', () => {
    expect(result("missing = 'x'")).toBeNull();
    expect(result("NOT (missing = 'x')")).toBeNull();
    expect(result("missing <> 'x'")).toBeNull();
    expect(result('missing > 1')).toBeNull();
    expect(result("missing = 'x' AND size = 5")).toBeNull();
    expect(result("missing = 'x' AND size = 4")).toBe(false);
    expect(result("missing = 'x' OR size = 5")).toBe(true);
    expect(result("missing = 'x' OR size = 4")).toBeNull();
    expect(selects("NOT (missing = 'x')")).toBe(false);
    expect(result('size > missing')).toBeNull();
  });

  it('keeps the broker’s equality quirks with missing values', () => {
    // Both sides missing: TRUE (IS NULL is built on this); a literal on the left of a missing value: FALSE.
    expect(result('missing = alsoMissing')).toBe(true);
    expect(result("'x' = missing")).toBe(false);
    expect(selects("'x' <> missing")).toBe(true);
  });

  it('answers IS [NOT] NULL for missing and null-valued properties', () => {
    expect(selects('missing IS NULL')).toBe(true);
    expect(selects('nothing IS NULL')).toBe(true);
    expect(selects('color IS NOT NULL')).toBe(true);
    expect(selects('color IS NULL')).toBe(false);
    expect(selects('size + 1 IS NOT NULL')).toBe(true);
  });

  it('reads a bare property as a condition: a boolean is itself, anything else FALSE', () => {
    expect(selects('urgent')).toBe(true);
    expect(selects('NOT archived')).toBe(true);
    expect(result('color')).toBe(false);
    expect(result('missing')).toBeNull();
    // (NOT color) = 'red': NOT FALSE is TRUE, and TRUE is not 'red'.
    expect(selects("NOT color = 'red'")).toBe(false);
    expect(selects("NOT color = 'blue'")).toBe(false);
  });

  it('does BETWEEN and NOT BETWEEN inclusively, unknown on a missing value', () => {
    expect(selects('size BETWEEN 5 AND 6')).toBe(true);
    expect(selects('size BETWEEN 1 AND 4')).toBe(false);
    expect(selects('size NOT BETWEEN 1 AND 4')).toBe(true);
    expect(selects('weight BETWEEN 2 AND 3')).toBe(true);
    expect(result('missing BETWEEN 1 AND 2')).toBeNull();
    expect(result('missing NOT BETWEEN 1 AND 2')).toBeNull();
    expect(result('text5 BETWEEN 1 AND 9')).toBe(false);
  });

  it('does IN on strings only: a number or a missing value is unknown', () => {
    expect(selects("color IN ('red', 'green')")).toBe(true);
    expect(selects("color NOT IN ('red', 'green')")).toBe(false);
    expect(selects("color NOT IN ('green')")).toBe(true);
    expect(result("size IN ('5')")).toBeNull();
    expect(result("missing NOT IN ('a')")).toBeNull();
  });

  it('does LIKE with % and _ over the whole value, ESCAPE, and FALSE on a non-string', () => {
    expect(selects("color LIKE 'r%'")).toBe(true);
    expect(selects("color LIKE 'r_d'")).toBe(true);
    expect(selects("color LIKE 'r_'")).toBe(false);
    expect(selects("color LIKE '%e%'")).toBe(true);
    expect(selects("color LIKE 'R%'")).toBe(false);
    expect(selects("multiline LIKE 'one_two'")).toBe(true);
    expect(selects("path LIKE 'a!_b!%c' ESCAPE '!'")).toBe(true);
    expect(selects("path LIKE 'a!_bx' ESCAPE '!'")).toBe(false);
    expect(selects("path LIKE 'a\\_b%' ESCAPE '\\'")).toBe(true);
    // Regex characters are plain characters; an escape before anything else is itself literal.
    expect(selects("color LIKE 're.'")).toBe(false);
    expect(selects("path LIKE 'a_b!c' ESCAPE '!'")).toBe(false);
    expect(result("size LIKE '5'")).toBe(false);
    expect(selects("size NOT LIKE '5'")).toBe(true);
    expect(result("missing LIKE 'a%'")).toBeNull();
  });

  it('reports names it could not know and body queries instead of pretending', () => {
    const unknowing: SelectorLookup = (name) => (name === 'AMQSize' ? UNKNOWABLE : lookup(name));
    const verdict = evaluateSelector(parseSelector("AMQSize > 100 OR color = 'red'"), unknowing);
    expect(verdict).toMatchObject({ selected: true, unknowable: ['AMQSize'] });
    const body = evaluateSelector(parseSelector("XPATH '/order[@id=1]'"), lookup);
    expect(body).toMatchObject({ selected: false, readsBody: true });
  });

  it('treats TRUE, FALSE and NULL literals as conditions', () => {
    expect(selects('TRUE')).toBe(true);
    expect(selects('FALSE OR TRUE')).toBe(true);
    expect(result('NULL')).toBeNull();
    expect(selects('urgent = TRUE AND archived = FALSE')).toBe(true);
  });
});
