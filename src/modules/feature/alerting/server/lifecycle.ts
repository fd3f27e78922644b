// The alert lifecycle as a pure function: given the open alert of a rule's subject (if any), this evaluation's
// observation of that subject (if any), the rule's for-duration and the time, what changes and what is delivered.
// pending (condition true, for-duration not yet held) → firing → resolved; a pending alert whose condition stops
// holding is dropped (it never fired, so nobody heard of it); a silenced alert changes state but delivers nothing.
// Flapping is damped: a subject that fires again less than the flap window after its alert resolved reopens that
// alert (its flaps counted) and its firing notification is held for the window (dropped if it resolves meanwhile).

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

/** The latest resolved alert of the same rule, cluster and subject, when there is one. */
export interface ResolvedAlert {
  readonly resolvedAt: Date;
  readonly silencedUntil: Date | null;
}

export type Step =
  | { readonly kind: 'none' }
  | { readonly kind: 'open'; readonly state: AlertState; readonly deliver: boolean }
  | { readonly kind: 'reopen'; readonly deliver: boolean }
  | { readonly kind: 'fire'; readonly deliver: boolean }
  | { readonly kind: 'update' }
  | { readonly kind: 'drop' }
  | { readonly kind: 'resolve'; readonly deliver: boolean };

const isSilenced = (alert: { readonly silencedUntil: Date | null }, now: Date) =>
  alert.silencedUntil !== null && alert.silencedUntil > now;

/** A silence that has run out: the alert is unsilenced (a transition of its own). */
export const silenceEnded = (alert: { readonly silencedUntil: Date | null }, now: Date) =>
  alert.silencedUntil !== null && alert.silencedUntil <= now;

export function stepOf(
  open: OpenAlert | undefined,
  observation: Observation | undefined,
  forMs: number,
  now: Date,
  flap?: { readonly resolved: ResolvedAlert | undefined; readonly windowMs: number },
): Step {
  const holds = observation?.firing === true;
  if (!open) {
    if (!holds) return { kind: 'none' };
    const resolved = flap?.resolved;
    if (resolved && flap.windowMs > 0 && now.getTime() - resolved.resolvedAt.getTime() < flap.windowMs) {
      return { kind: 'reopen', deliver: !isSilenced(resolved, now) };
    }
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
