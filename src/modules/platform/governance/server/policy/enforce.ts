// The one enforcement function every exit of message content goes through (browse, message detail, send echo, MCP
// outputs, tails, broker event properties, audit parameters): rules first (a header, a property, a JSON or XML
// path, a text pattern), then the detectors on every string no rule classified. Credentials are dropped for
// everyone; other classes are masked or partially masked, or, for a caller with clear access, kept and marked
// sensitive. Content that cannot be inspected (binary, compressed) or does not parse as what it claims to be is
// withheld with the reason: the policy fails closed. Every hidden value is listed with its class and what hid it.
// Header and property names pass the detectors too (a property may be named after a card number), and byte values
// (a binary property or id) are read as the UTF-8 text they hold; bytes that are not text cannot be inspected and
// are withheld unless the caller has clear access.
import type { Action, DataClass } from './data-classes.ts';
import { detect } from './detectors.ts';
import { maskedText } from './mask.ts';
import { pathMatches } from './matchers.ts';
import type { CompiledPolicy, CompiledRule } from './policy.ts';
import { rewriteXml, XmlError } from './xml-scan.ts';

type MessageBody =
  | { readonly kind: 'empty' }
  | { readonly kind: 'text'; readonly text: string; readonly contentType?: string | undefined }
  | {
      readonly kind: 'bytes';
      readonly size: number;
      readonly contentType?: string | undefined;
      readonly compressed?: boolean;
    };

export interface MessageContent {
  readonly address?: string | undefined;
  readonly headers?: Readonly<Record<string, unknown>>;
  readonly properties?: Readonly<Record<string, unknown>>;
  readonly body?: MessageBody;
}

interface Redaction {
  /** Where: `header:<name>`, `property:<name>[.path]`, `body$.a.b`, `body/a/b`, `body/a/@attr` or `body@<offset>`. */
  readonly location: string;
  readonly dataClass: DataClass;
  /** What was done: dropped, masked, partial, or clear (shown to a caller with clear access, marked sensitive). */
  readonly action: Action | 'clear';
  /** `rule:<id>` or `detector:<id>`. */
  readonly by: string;
}

/** A detection no rule covers: what `classification_finding` aggregates so someone can make a rule of it. */
export interface Finding {
  readonly address: string | undefined;
  /** The location with array indices as [*], so one rule can cover them all. */
  readonly location: string;
  readonly detector: string;
  readonly dataClass: DataClass;
}

type GovernedBody =
  | { readonly kind: 'empty' }
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'xml' | 'text'; readonly value: string }
  | { readonly kind: 'withheld'; readonly reason: string };

export interface Governed<Shape> {
  readonly value: Shape;
  readonly redactions: readonly Redaction[];
  readonly findings: readonly Finding[];
  readonly policyVersion: number;
  /** The caller saw non-credential values in clear: the exit writes VIEW_CLEAR with these counts. */
  readonly clearCounts: Partial<Record<DataClass, number>>;
  /** Names the detectors changed, `header:<name>` or `property:<name>` → the name shown (private to the exit). */
  readonly renamed: Readonly<Record<string, string>>;
}

export interface GovernedMessage {
  readonly headers: Record<string, unknown>;
  readonly properties: Record<string, unknown>;
  readonly body: GovernedBody;
}

export interface EnforceOptions {
  /** The caller holds message:clear on the cluster. */
  readonly clear: boolean;
}

const DROP = Symbol('drop');
const KEEP = Symbol('keep');
const NO_RULES: readonly CompiledRule[] = [];

interface Hit {
  readonly start: number;
  readonly end: number;
  readonly dataClass: DataClass;
  readonly by: string;
  readonly rule: boolean;
}

/** Where a value sits, worked out only when something is found there (most values hold nothing). */
interface Locator {
  here(): string;
  /** With array indices as [*]: what findings aggregate on. */
  general(): string;
}

class FixedLocator implements Locator {
  constructor(private readonly location: string) {}
  here(): string {
    return this.location;
  }
  general(): string {
    return this.location;
  }
}

/** The path of a walk, pushed and popped as it goes: `<prefix>.a.b` (records) or `body$.a.b` (JSON bodies). */
const BODY = new FixedLocator('body');

class XmlLocator implements Locator {
  constructor(private readonly path: readonly string[]) {}
  here(): string {
    return `body/${this.path.join('/')}`;
  }
  general(): string {
    return this.here();
  }
}

class PathLocator implements Locator {
  readonly path: string[] = [];
  constructor(private readonly prefix: string) {}
  private format(path: readonly string[]): string {
    return path.length === 0 ? this.prefix : `${this.prefix}.${path.join('.')}`;
  }
  here(): string {
    return this.format(this.path);
  }
  general(): string {
    return this.format(this.path.map((segment) => (/^\d+$/.test(segment) ? '*' : segment)));
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The text bytes hold: valid UTF-8 without control characters other than tab and line breaks; else undefined. */
function textOf(bytes: Buffer): string | undefined {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return undefined;
  }
  // eslint-disable-next-line no-control-regex -- control characters are what tells bytes from text
  return /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(text) ? undefined : text;
}

class Enforcement {
  readonly redactions: Redaction[] = [];
  readonly findings: Finding[] = [];
  readonly clearCounts: Partial<Record<DataClass, number>> = {};
  readonly renamed: Record<string, string> = {};

  constructor(
    private readonly policy: CompiledPolicy,
    private readonly address: string | undefined,
    private readonly options: EnforceOptions,
  ) {}

  /** The effect of a class on a whole value: dropped, kept (clear), or replaced. */
  private classify(
    value: string,
    dataClass: DataClass,
    location: string,
    by: string,
  ): string | typeof DROP | typeof KEEP {
    const action = this.policy.actionOf(dataClass);
    if (action !== 'drop' && this.options.clear) {
      this.redactions.push({ location, dataClass, action: 'clear', by });
      this.clearCounts[dataClass] = (this.clearCounts[dataClass] ?? 0) + 1;
      return KEEP;
    }
    this.redactions.push({ location, dataClass, action, by });
    return action === 'drop' ? DROP : maskedText(value, dataClass, action);
  }

  /** Detectors and text-pattern rules over free text; each hit replaced in place. */
  scanText(text: string, locator: Locator, withPatterns: boolean): string {
    const hits: Hit[] = [];
    if (withPatterns) {
      for (const rule of this.policy.rulesFor('text-pattern', this.address)) {
        const pattern = rule.text;
        if (!pattern) continue;
        pattern.lastIndex = 0;
        for (const match of text.matchAll(pattern)) {
          if (match[0] === '') continue;
          hits.push({
            start: match.index,
            end: match.index + match[0].length,
            dataClass: rule.rule.dataClass,
            by: `rule:${rule.rule.id}`,
            rule: true,
          });
        }
      }
    }
    if (this.policy.detectors.size > 0) {
      const detections = detect(text, this.policy.detectors);
      for (const detection of detections)
        hits.push({ ...detection, by: `detector:${detection.detector}`, rule: false });
    }
    if (hits.length === 0) return text;
    hits.sort((a, b) => a.start - b.start || Number(b.rule) - Number(a.rule));
    let output = '';
    let at = 0;
    for (const hit of hits) {
      if (hit.start < at) continue;
      if (!hit.rule) {
        this.findings.push({
          address: this.address,
          location: locator.general(),
          detector: hit.by.slice('detector:'.length),
          dataClass: hit.dataClass,
        });
      }
      const original = text.slice(hit.start, hit.end);
      const where = locator.here();
      const replaced = this.classify(
        original,
        hit.dataClass,
        where === 'body' ? `body@${String(hit.start)}` : where,
        hit.by,
      );
      const shown =
        replaced === KEEP ? original : replaced === DROP ? maskedText(original, hit.dataClass, 'drop') : replaced;
      output += text.slice(at, hit.start) + shown;
      at = hit.end;
    }
    return output + text.slice(at);
  }

  /** A whole value classified by a rule, or its strings scanned. */
  private ruled(value: unknown, rule: CompiledRule, location: string): unknown {
    const text = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
    const effect = this.classify(text, rule.rule.dataClass, location, `rule:${rule.rule.id}`);
    return effect === KEEP ? value : effect;
  }

  /**
   * A JSON-like value walked: rules on paths, detectors on strings (and on long numbers, as text). Copy on write:
   * an object or array none of whose values changed is returned as it was.
   */
  walk(value: unknown, locator: PathLocator, pathRules: readonly CompiledRule[]): unknown {
    const path = locator.path;
    const rule =
      pathRules.length > 0
        ? pathRules.find((candidate) => candidate.path && pathMatches(candidate.path, path))
        : undefined;
    if (rule) return this.ruled(value, rule, locator.here());
    if (typeof value === 'string') return value.length < 6 ? value : this.scanText(value, locator, false);
    if (value instanceof Uint8Array) return this.bytes(value, locator);
    if (typeof value === 'number') {
      if (value < 1e11 || !Number.isInteger(value)) return value;
      const text = String(value);
      const scanned = this.scanText(text, locator, false);
      return scanned === text ? value : scanned;
    }
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      let items: unknown[] | undefined;
      for (let index = 0; index < value.length; index++) {
        const item: unknown = value[index];
        path.push(String(index));
        const governed = this.walk(item, locator, pathRules);
        path.pop();
        if (governed !== item && !items) items = value.slice(0, index) as unknown[];
        if (items && governed !== DROP) items.push(governed);
      }
      return items ?? value;
    }
    let out: Record<string, unknown> | undefined;
    const entries = Object.entries(value as Record<string, unknown>);
    for (let index = 0; index < entries.length; index++) {
      const [key, item] = entries[index] as [string, unknown];
      path.push(key);
      const governed = this.walk(item, locator, pathRules);
      path.pop();
      if (governed !== item && !out) out = Object.fromEntries(entries.slice(0, index));
      if (out && governed !== DROP) out[key] = governed;
    }
    return out ?? value;
  }

  /**
   * Bytes (a binary property or id), shown as base64: the UTF-8 text they hold scanned, and masked inside when
   * something is found; bytes that are not text are withheld, or shown to a caller with clear access, marked.
   */
  private bytes(value: Uint8Array, locator: Locator): string {
    const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    const text = textOf(bytes);
    if (text === undefined) {
      const effect = this.classify('', 'other-sensitive', locator.here(), 'binary');
      return effect === KEEP ? bytes.toString('base64') : `[withheld: ${String(bytes.length)} bytes that are not text]`;
    }
    const scanned = text.length < 6 ? text : this.scanText(text, locator, false);
    return Buffer.from(scanned, 'utf8').toString('base64');
  }

  /** A header or property name through the detectors (rules name fields; they do not classify names). */
  private name(name: string, target: 'header' | 'property'): string {
    if (name.length < 6) return name;
    const shown = this.scanText(name, new FixedLocator(`${target}-name`), false);
    if (shown !== name) this.renamed[`${target}:${name}`] = shown;
    return shown;
  }

  /** Headers or properties: name rules first, then the value walked; the names themselves through the detectors. */
  record(
    values: Readonly<Record<string, unknown>> | undefined,
    target: 'header' | 'property',
  ): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (!values) return out;
    const rules = this.policy.rulesFor(target, this.address);
    for (const [name, value] of Object.entries(values)) {
      const shown = this.name(name, target);
      const location = `${target}:${shown}`;
      const rule = rules.find((candidate) => candidate.name?.(name));
      const governed = rule ? this.ruled(value, rule, location) : this.walk(value, new PathLocator(location), NO_RULES);
      if (governed !== DROP) out[shown in out ? `${shown} (${String(Object.keys(out).length)})` : shown] = governed;
    }
    return out;
  }

  /** Named short strings a list shows (a name, a filter): detectors only, since rules name message fields. */
  fields(values: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(values)) out[name] = this.walk(value, new PathLocator(name), NO_RULES);
    return out;
  }

  body(body: MessageBody | undefined): GovernedBody {
    if (!body || body.kind === 'empty') return { kind: 'empty' };
    if (body.kind === 'bytes') {
      return {
        kind: 'withheld',
        reason: body.compressed
          ? `compressed content (${String(body.size)} bytes) cannot be inspected, so it is not shown`
          : `binary content (${String(body.size)} bytes) cannot be inspected, so it is not shown`,
      };
    }
    const { text } = body;
    const type = (body.contentType ?? '').toLowerCase();
    const start = text.trimStart()[0];
    const json = type.includes('json') || (!type.includes('xml') && (start === '{' || start === '['));
    const xml = !json && (type.includes('xml') || start === '<');
    if (json) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        return {
          kind: 'withheld',
          reason: `the body looks like JSON but does not parse (${(error as Error).message}), so it is not shown`,
        };
      }
      const rules = this.policy.rulesFor('json-path', this.address);
      const governed = this.walk(parsed, new PathLocator('body$'), rules);
      return { kind: 'json', value: governed === DROP ? null : governed };
    }
    if (xml) {
      const rules = this.policy.rulesFor('xml-path', this.address);
      try {
        const value = rewriteXml(text, (value, path, attribute) => {
          const full = attribute ? [...path, `@${attribute}`] : path;
          const locator = new XmlLocator(full);
          const rule =
            rules.length > 0
              ? rules.find((candidate) => candidate.path && pathMatches(candidate.path, full))
              : undefined;
          if (rule) {
            const replaced = this.ruled(value, rule, locator.here());
            return replaced === DROP ? '' : String(replaced);
          }
          if (value.length < 6) return undefined;
          const scanned = this.scanText(value, locator, false);
          return scanned === value ? undefined : scanned;
        });
        return { kind: 'xml', value };
      } catch (error) {
        if (!(error instanceof XmlError)) throw error;
        return {
          kind: 'withheld',
          reason: `the body looks like XML but is not well-formed (${error.message}), so it is not shown`,
        };
      }
    }
    return {
      kind: 'text',
      value: this.scanText(text, BODY, true),
    };
  }
}

/** The one function every exit of message content goes through. */
export function enforceMessage(
  policy: CompiledPolicy,
  content: MessageContent,
  options: EnforceOptions,
): Governed<GovernedMessage> {
  const run = new Enforcement(policy, content.address, options);
  const value = {
    headers: run.record(content.headers, 'header'),
    properties: run.record(content.properties, 'property'),
    body: run.body(content.body),
  };
  return {
    value,
    redactions: run.redactions,
    findings: run.findings,
    policyVersion: policy.version,
    clearCounts: run.clearCounts,
    renamed: run.renamed,
  };
}

/** A record of named values (a broker event's properties, an audit row's parameters) governed like properties. */
export function enforceRecord(
  policy: CompiledPolicy,
  record: Readonly<Record<string, unknown>>,
  context: { readonly address?: string | undefined; readonly clear: boolean },
): Governed<Record<string, unknown>> {
  const run = new Enforcement(policy, context.address, { clear: context.clear });
  const value = run.record(record, 'property');
  return {
    value,
    redactions: run.redactions,
    findings: run.findings,
    policyVersion: policy.version,
    clearCounts: run.clearCounts,
    renamed: run.renamed,
  };
}

/**
 * Named short strings a list or an event shows (an address or queue name, a consumer's filter, a client id) through
 * the detectors: the same masking and clear access as message content, without rules (they name message fields)
 * and without findings (no rule could cover a name).
 */
export function enforceFields(
  policy: CompiledPolicy,
  values: Readonly<Record<string, unknown>>,
  context: { readonly clear: boolean },
): Governed<Record<string, unknown>> {
  const run = new Enforcement(policy, undefined, { clear: context.clear });
  const value = run.fields(values);
  return {
    value,
    redactions: run.redactions,
    findings: [],
    policyVersion: policy.version,
    clearCounts: run.clearCounts,
    renamed: {},
  };
}
