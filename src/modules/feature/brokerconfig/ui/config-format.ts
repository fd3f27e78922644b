// How the configuration screens word things: a field's value, a state's colour, a change list in one line.
import type { RouterOutputs } from '@/ui/data/trpc.ts';

export type Overview = RouterOutputs['brokerconfig']['overview'];
export type DriftRow = Overview['drift'][number];
export type DriftState = DriftRow['state'];
export type Plan = RouterOutputs['brokerconfig']['plan'];
export type ApplyAnswer = RouterOutputs['brokerconfig']['applyPlan'];
export type ItemChange = RouterOutputs['brokerconfig']['revisions']['list']['items'][number]['changes'][number];

export const DRIFT_STATES: readonly DriftState[] = ['DRIFTED', 'MISSING', 'UNVERIFIABLE', 'IN_SYNC'];

export const STATE_COLORS: Record<DriftState, string> = {
  IN_SYNC: 'teal',
  DRIFTED: 'orange',
  MISSING: 'red',
  UNVERIFIABLE: 'gray',
};

export const OUTCOME_COLORS: Record<string, string> = {
  APPLIED: 'teal',
  UNCHANGED: 'gray',
  WOULD_APPLY: 'blue',
  HALTED: 'red',
  NOT_REACHED: 'yellow',
  SUCCEEDED: 'teal',
  FAILED: 'red',
};

export const LEVEL_COLORS: Record<'HIGH' | 'MEDIUM' | 'LOW', string> = { HIGH: 'red', MEDIUM: 'orange', LOW: 'gray' };

/** A declared or live value as the screens show it: JSON, and "not set" for nothing. */
export function valueText(value: unknown): string {
  if (value === undefined || value === null) return 'not set';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const SIGN: Record<ItemChange['change'], string> = { added: '+', removed: '−', changed: '~' };

/** One change in words: `+ queues orders`, `~ addressSettings # (maxDeliveryAttempts, redeliveryDelay)`. */
export function changeText(change: ItemChange): string {
  const fields = change.fields.length > 0 ? ` (${change.fields.join(', ')})` : '';
  return `${SIGN[change.change]} ${change.section} ${change.key}${fields}`;
}

export const plural = (count: number, one: string, many: string) => `${String(count)} ${count === 1 ? one : many}`;
