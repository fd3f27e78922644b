// The policy being edited on Admin → Governance: a copy of the version in force that rules, detectors and actions
// change until it is put in force (or tried on a sample first).
import type { RouterOutputs } from '@/ui/data/trpc.ts';

type PolicyAnswer = RouterOutputs['governance']['policy'];
export type Draft = Omit<PolicyAnswer['policy'], 'version'>;
export type DraftRule = Draft['rules'][number];
export type Catalogue = PolicyAnswer['catalogue'];

export function draftOf(policy: PolicyAnswer['policy']): Draft {
  return { rules: policy.rules, detectors: policy.detectors, actions: policy.actions };
}

/** The draft as the API takes it: every class with its action. */
export function draftBody(draft: Draft, catalogue: Catalogue) {
  return {
    rules: draft.rules,
    detectors: draft.detectors,
    actions: Object.fromEntries(
      catalogue.dataClasses.map((dataClass) => [dataClass, draft.actions[dataClass] ?? 'mask']),
    ) as Record<Catalogue['dataClasses'][number], Catalogue['actions'][number]>,
  };
}
