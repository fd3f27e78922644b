// The alert lifecycle as a pure function: given the open alert of a rule's subject (if any), this evaluation's
// observation of that subject (if any), the rule's for-duration and the time, what changes and what is delivered.
// pending (condition true, for-duration not yet held) → firing → resolved; a pending alert whose condition stops
// holding is dropped (it never fired, so nobody heard of it); a silenced alert changes state but delivers nothing.

type AlertState = 'pending' | 'firing';

export interface OpenAlert {
  readonly state: AlertState;
  readonly since: Date;
  readonly silencedUntil: Date | null;
}

export interface Observation {
  readonly firing: boolean;
  readonly value: number | null;
}

export type Step =
  | { readonly kind: 'none' }
  | { readonly kind: 'open'; readonly state: AlertState; readonly deliver: boolean }
  | { readonly kind: 'fire'; readonly deliver: boolean }
  | { readonly kind: 'update' }
  | { readonly kind: 'drop' }
  | { readonly kind: 'resolve'; readonly deliver: boolean };

const isSilenced = (alert: { readonly silencedUntil: Date | null }, now: Date) =>
  alert.silencedUntil !== null && alert.silencedUntil > now;

export function stepOf(
  open: OpenAlert | undefined,
  observation: Observation | undefined,
  forMs: number,
  now: Date,
): Step {
  const holds = observation?.firing === true;
  if (!open) {
    if (!holds) return { kind: 'none' };
    return forMs <= 0
      ? { kind: 'open', state: 'firing', deliver: true }
      : { kind: 'open', state: 'pending', deliver: false };
  }
  if (open.state === 'pending') {
    if (!holds) return { kind: 'drop' };
    return now.getTime() - open.since.getTime() >= forMs
      ? { kind: 'fire', deliver: !isSilenced(open, now) }
      : { kind: 'update' };
  }
  if (holds) return { kind: 'update' };
  return { kind: 'resolve', deliver: !isSilenced(open, now) };
}
