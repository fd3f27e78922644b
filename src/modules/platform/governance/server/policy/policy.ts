// The content policy: rules that classify a header, a property, a JSON body path, an XML element path or a text
// pattern (optionally only on addresses matching a pattern), the detectors that run everywhere else, and what
// happens to each data class. Versioned: every change is a new version, and every governed answer names the
// version it was made with. Compiled once per version into matchers.
import { z } from 'zod';
import { ACTIONS, DATA_CLASSES, DEFAULT_ACTIONS, type Action, type DataClass } from './data-classes.ts';
import { DETECTOR_IDS, type DetectorId } from './detectors.ts';
import { addressMatcher, nameMatcher, pathPattern, type PathPattern } from './matchers.ts';

export const RULE_TARGETS = ['header', 'property', 'json-path', 'xml-path', 'text-pattern'] as const;
export type RuleTarget = (typeof RULE_TARGETS)[number];

function validPattern(rule: { target: RuleTarget; match: string }): boolean {
  if (rule.target !== 'text-pattern') return true;
  try {
    new RegExp(rule.match, 'g');
    return true;
  } catch {
    return false;
  }
}

export const ruleSchema = z
  .object({
    id: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes'),
    target: z.enum(RULE_TARGETS),
    match: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .describe(
        'A header or property name (* wildcard), a JSON path ($.a.*.b, $..card), an XML path (/a/b, //b) or a regular expression',
      ),
    addressPattern: z
      .string()
      .trim()
      .max(500)
      .optional()
      .describe('Only on addresses matching this (Artemis wildcards: # and *)'),
    dataClass: z.enum(DATA_CLASSES),
    note: z.string().trim().max(500).optional(),
  })
  .refine(validPattern, { message: 'the text pattern is not a valid regular expression', path: ['match'] });
export type PolicyRule = z.infer<typeof ruleSchema>;

const uniqueRuleIds = (policy: { rules: readonly { id: string }[] }) =>
  new Set(policy.rules.map((rule) => rule.id)).size === policy.rules.length;

/** The fields of a policy version, for inputs that add their own (a dry-run flag). */
export const policyBodyShape = {
  rules: z.array(ruleSchema).max(1_000),
  detectors: z.array(z.enum(DETECTOR_IDS)).max(DETECTOR_IDS.length),
  actions: z.object(
    Object.fromEntries(DATA_CLASSES.map((dataClass) => [dataClass, z.enum(ACTIONS)])) as Record<
      DataClass,
      z.ZodEnum<{ drop: 'drop'; mask: 'mask'; partial: 'partial' }>
    >,
  ),
};

export const policyBodySchema = z
  .object(policyBodyShape)
  .refine(uniqueRuleIds, { message: 'rule ids must be unique', path: ['rules'] });

export { uniqueRuleIds };
export type PolicyBody = z.infer<typeof policyBodySchema>;

export interface ContentPolicy extends PolicyBody {
  readonly version: number;
}

/** Version 0: no rules, every detector on, the default actions. What a fresh installation enforces. */
export const DEFAULT_POLICY: ContentPolicy = {
  version: 0,
  rules: [],
  detectors: [...DETECTOR_IDS],
  actions: { ...DEFAULT_ACTIONS },
};

interface CompiledRule {
  readonly rule: PolicyRule;
  readonly onAddress: (address: string | undefined) => boolean;
  readonly name?: (name: string) => boolean;
  readonly path?: PathPattern;
  readonly text?: RegExp;
}

export interface CompiledPolicy {
  readonly version: number;
  readonly detectors: ReadonlySet<DetectorId>;
  /** Credentials are dropped whatever the policy says. */
  readonly actionOf: (dataClass: DataClass) => Action;
  readonly rulesFor: (target: RuleTarget, address: string | undefined) => readonly CompiledRule[];
}

export type { CompiledRule };

export function compilePolicy(policy: ContentPolicy): CompiledPolicy {
  const compiled: CompiledRule[] = policy.rules.map((rule) => ({
    rule,
    onAddress: addressMatcher(rule.addressPattern),
    ...(rule.target === 'header' || rule.target === 'property' ? { name: nameMatcher(rule.match) } : {}),
    ...(rule.target === 'json-path' || rule.target === 'xml-path'
      ? { path: pathPattern(rule.target, rule.match) }
      : {}),
    ...(rule.target === 'text-pattern' ? { text: new RegExp(rule.match, 'g') } : {}),
  }));
  const byTarget = new Map<RuleTarget, CompiledRule[]>();
  for (const rule of compiled) byTarget.set(rule.rule.target, [...(byTarget.get(rule.rule.target) ?? []), rule]);
  return {
    version: policy.version,
    detectors: new Set(policy.detectors),
    actionOf: (dataClass) => (dataClass === 'credential' ? 'drop' : policy.actions[dataClass]),
    rulesFor: (target, address) => (byTarget.get(target) ?? []).filter((rule) => rule.onAddress(address)),
  };
}
