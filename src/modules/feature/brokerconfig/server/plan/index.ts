// The plan's entry for the rest of the brokerconfig module: pure logic (no I/O) from a declared document and node
// snapshots to drift, plans with their hazards, the plan hash, recommendations and adoption.
export { adopt } from './adopt.ts';
export { BRIDGE_READABLE, compareAddressSetting } from './compare.ts';
export { driftOfNode } from './drift.ts';
export { matches } from './match.ts';
export { planHash } from './plan-hash.ts';
export { planNode } from './planner.ts';
export { recommend } from './recommendations.ts';
export type { NodePlan, PlanStep } from './plan-types.ts';
