// The hash a preview issues and a real run names (spec: Configuration apply, 409 `plan-changed`). It covers everything
// the run would do and every hazard the operator acknowledged: the revision, each node in canary order, its steps (id,
// write, credential reference) and its hazards (id, level). Keys are sorted so equal plans hash alike; a password
// never enters it (a write never holds one, and any `password` key is dropped to be sure).
import { createHash } from 'node:crypto';
import type { NodePlan } from './plan-types.ts';

export interface PlanHashInput {
  readonly revision: number;
  /** In canary order: the first node receives every step first, so the order is part of the plan. */
  readonly nodes: readonly (Pick<NodePlan, 'nodeId' | 'steps' | 'hazards'> & { readonly unread?: boolean })[];
}

/** JSON with object keys sorted at every depth and `password` keys left out. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner)
            .filter(([key]) => key !== 'password')
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : inner,
  );
}

export function planHash(input: PlanHashInput): string {
  const plan = {
    revision: input.revision,
    nodes: input.nodes.map((node) => ({
      nodeId: node.nodeId,
      unread: node.unread === true,
      steps: node.steps.map((step) => ({ id: step.id, write: step.write, passwordRef: step.passwordRef ?? null })),
      hazards: node.hazards.map((hazard) => ({ id: hazard.id, level: hazard.level })),
    })),
  };
  return createHash('sha256').update(canonicalJson(plan)).digest('hex');
}
