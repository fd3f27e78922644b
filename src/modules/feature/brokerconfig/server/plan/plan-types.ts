// The shapes a plan is made of (spec: Broker configuration management; Configuration apply). A plan is computed per
// live node from its snapshot; its steps are single management writes, sent one per POST so the first failure halts;
// its hazards are classified before any write and High ones must be acknowledged by id, so every id is stable: the
// same declared item, live state and rule always give the same id.
import type { ConfigWrite } from '@/modules/platform/broker/index.ts';

export type ItemKind = 'addressSetting' | 'securitySetting' | 'divert' | 'bridge' | 'queue';
export const ITEM_KINDS: readonly ItemKind[] = ['addressSetting', 'securitySetting', 'divert', 'bridge', 'queue'];

export type HazardLevel = 'HIGH' | 'MEDIUM' | 'LOW';

export interface Hazard {
  /** `${kind}:${key}:${code}`, e.g. `queue:orders:remove-with-messages`: what an acknowledgement names. */
  readonly id: string;
  readonly level: HazardLevel;
  readonly code: string;
  readonly kind: ItemKind;
  readonly key: string;
  /** What happens, with the numbers read from the node. */
  readonly message: string;
  /** The harm an operator who reads it avoids. */
  readonly prevents?: string;
}

/** A value as JSON has it: what a document declares and what the broker's JSON reads give. */
export type FieldValue =
  string | number | boolean | null | readonly FieldValue[] | { readonly [key: string]: FieldValue };

/** One field that differs: the declared value and the value read (null when absent). A type, not an interface, so
 * it stores as a JSON column as it is. */
export type FieldDiff = {
  readonly field: string;
  readonly declared: FieldValue;
  readonly live: FieldValue;
};

export type StepAction = 'create' | 'update' | 'remove';

export interface PlanStep {
  /** `${kind}:${key}:${action}`: a remove+create pair is two steps with two ids. */
  readonly id: string;
  readonly kind: ItemKind;
  /** The match (address and security settings) or the name. */
  readonly key: string;
  readonly action: StepAction;
  readonly write: ConfigWrite;
  /** One line in words. */
  readonly summary: string;
  readonly fields: readonly FieldDiff[];
  readonly hazardIds: readonly string[];
  /** The addresses, queues and matches the step names (the reserved-name guard checks them). */
  readonly destinations: readonly string[];
  /** A bridge's vault credential: the apply step opens it and adds the password to the write, which never holds it. */
  readonly passwordRef?: string;
}

export interface NodePlan {
  readonly nodeId: string;
  readonly nodeName: string;
  readonly steps: readonly PlanStep[];
  readonly hazards: readonly Hazard[];
}

export type DriftState = 'IN_SYNC' | 'DRIFTED' | 'MISSING' | 'UNVERIFIABLE';

export interface DriftItem {
  readonly kind: ItemKind;
  readonly key: string;
  readonly state: DriftState;
  readonly fields: readonly FieldDiff[];
  readonly note?: string;
}

/** The key of an item Flotilla applied on a node, as `appliedKeys` holds it. */
export const appliedKey = (kind: ItemKind, key: string): string => `${kind}:${key}`;

/** A step before its hazards are classified. */
export type DraftStep = Omit<PlanStep, 'hazardIds'>;
