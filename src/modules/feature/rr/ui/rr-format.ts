// How the rr screens write their numbers and states: latencies in ms, shares as percentages, a colour per state.
import type { RouterOutputs } from '@/ui/data/trpc.ts';

export type FlowSummary = RouterOutputs['rr']['flows']['items'][number];
export type RrState = keyof FlowSummary['states'];

/** The states in the order the screens list them (the correlator's lifecycle); a misspelt one is a type error. */
export const STATES: readonly RrState[] = [
  'AWAITING_REPLY',
  'COMPLETED',
  'TIMED_OUT',
  'RESPONDER_DROPPED',
  'ORPHANED',
  'ORPHANED_REPLY',
];

export const STATE_COLOR: Readonly<Record<RrState, string>> = {
  AWAITING_REPLY: 'blue',
  COMPLETED: 'teal',
  TIMED_OUT: 'red',
  RESPONDER_DROPPED: 'orange',
  ORPHANED: 'grape',
  ORPHANED_REPLY: 'yellow',
};

export const ms = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : `${value.toLocaleString('en')} ms`;

export const percent = (share: number | null | undefined): string =>
  share === null || share === undefined ? '—' : `${(share * 100).toFixed(1)} %`;
