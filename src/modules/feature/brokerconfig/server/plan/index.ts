// The plan's entry for the rest of the brokerconfig module: pure logic (no I/O) from a declared document and node
// snapshots to drift, plans, hazards, the plan hash, recommendations and adoption.
export { adopt } from './adopt.ts';
export type { AdoptNode } from './adopt.ts';
export { driftOfNode } from './drift.ts';
export { compareSpecificity, matches, mostSpecific } from './match.ts';
export { planHash } from './plan-hash.ts';
export type { PlanHashInput } from './plan-hash.ts';
export { planNode } from './planner.ts';
export type { PlanNodeInput } from './planner.ts';
export { recommend } from './recommendations.ts';
export type { Recommendation, RecommendationContext } from './recommendations.ts';
export { appliedKey, ITEM_KINDS } from './plan-types.ts';
export type {
  DriftItem,
  DriftState,
  FieldDiff,
  Hazard,
  HazardLevel,
  ItemKind,
  NodePlan,
  PlanStep,
  StepAction,
} from './plan-types.ts';
