// The rule editor's draft, pure so the unit test pins it: what a new rule starts as, what an existing one reads as,
// and what the API takes from it, or which fields are still missing.
import type { RouterInputs, RouterOutputs } from '@/ui/data/trpc.ts';
import { SEVERITIES } from './alerting-parts.tsx';
import { missingOf, type FormValues, type JsonSchema } from './schema-fields.ts';

type Rule = RouterOutputs['alerting']['getRule'];
export type RuleInput = RouterInputs['alerting']['createRule'];
export type Scope = 'all' | 'environment' | 'cluster';

export interface RuleDraft {
  readonly name: string;
  readonly kind: string | null;
  readonly params: FormValues;
  readonly scope: Scope;
  readonly clusterId: string | null;
  readonly environmentId: string | null;
  readonly pattern: string;
  readonly severity: (typeof SEVERITIES)[number];
  readonly forSeconds: number;
  readonly labels: string;
  readonly channelIds: string[];
  readonly enabled: boolean;
}

export const EMPTY_DRAFT: RuleDraft = {
  name: '',
  kind: null,
  params: {},
  scope: 'all',
  clusterId: null,
  environmentId: null,
  pattern: '',
  severity: 'warning',
  forSeconds: 0,
  labels: '',
  channelIds: [],
  enabled: true,
};

export function draftOf(rule: Rule): RuleDraft {
  return {
    name: rule.name,
    kind: rule.condition.kind,
    params: rule.condition.params,
    scope: rule.clusterId ? 'cluster' : rule.environmentId ? 'environment' : 'all',
    clusterId: rule.clusterId,
    environmentId: rule.environmentId,
    pattern: rule.pattern ?? '',
    severity: SEVERITIES.find((severity) => severity === rule.severity) ?? 'warning',
    forSeconds: rule.forSeconds,
    labels: Object.entries(rule.labels)
      .map(([key, value]) => `${key}=${value}`)
      .join('\n'),
    channelIds: rule.channelIds,
    enabled: rule.enabled,
  };
}

/** `key=value` lines; a line without `=` is a label with an empty value. */
function labelsOf(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .map((line) => {
        const at = line.indexOf('=');
        return at < 0 ? [line, ''] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
      }),
  );
}

/** What the API takes, or what is still missing. */
export function inputOf(draft: RuleDraft, schema: JsonSchema | undefined): { input?: RuleInput; missing: string[] } {
  const missing = [
    ...(draft.name.trim() ? [] : ['Name']),
    ...(draft.kind ? [] : ['Condition']),
    ...missingOf(schema, draft.params),
    ...(draft.scope === 'cluster' && !draft.clusterId ? ['Cluster'] : []),
    ...(draft.scope === 'environment' && !draft.environmentId ? ['Environment'] : []),
  ];
  if (missing.length > 0 || !draft.kind) return { missing };
  return {
    missing,
    input: {
      name: draft.name.trim(),
      condition: { kind: draft.kind, params: draft.params },
      clusterId: draft.scope === 'cluster' ? draft.clusterId : null,
      environmentId: draft.scope === 'environment' ? draft.environmentId : null,
      pattern: draft.pattern.trim() || null,
      severity: draft.severity,
      forSeconds: draft.forSeconds,
      labels: labelsOf(draft.labels),
      channelIds: draft.channelIds,
      enabled: draft.enabled,
      dryRun: false,
    },
  };
}
