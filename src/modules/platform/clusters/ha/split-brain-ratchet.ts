// Split-brain corroboration. Two members of one pair answering Active on a single poll can be a moment of a
// normal failover or failback, so the signal is raised only after RAISE_AFTER consecutive tier-A polls see it, and
// cleared only after CLEAR_AFTER consecutive polls do not. The ratchet lives in memory (spec: State ownership);
// only the verdict is persisted, and a restarted worker resumes from it, re-corroborating within a tier-A cycle.
import type { PairObservation } from './logical-nodes.ts';

export const RAISE_AFTER = 2;
export const CLEAR_AFTER = 2;

export interface RatchetState {
  readonly raised: boolean;
  /** Since when the pair has been split (the first poll of the corroborated streak); null when not raised. */
  readonly since: Date | null;
  /** Consecutive polls against the current verdict: dual-active ones while not raised, others while raised. */
  readonly streak: number;
  /** When the current streak began. */
  readonly streakStartedAt: Date | null;
}

const QUIET: RatchetState = { raised: false, since: null, streak: 0, streakStartedAt: null };

/** The state a restarted worker starts from: the persisted verdict, no streak. */
export function resumeRatchet(persistedSince: Date | null): RatchetState {
  return persistedSince ? { raised: true, since: persistedSince, streak: 0, streakStartedAt: null } : QUIET;
}

/**
 * One tier-A poll of the pair. An unreachable member cannot answer Active, so a poll that misses one cannot
 * corroborate a split-brain (it breaks a raising streak), and counts towards clearing one: what Flotilla cannot
 * see it cannot keep asserting, the same way an alert resolves when its condition is no longer observed.
 */
export function advanceRatchet(state: RatchetState, observation: PairObservation, polledAt: Date): RatchetState {
  const isDual = observation === 'dual-active';
  if (!state.raised) {
    if (!isDual) return QUIET;
    const streak = state.streak + 1;
    const streakStartedAt = state.streakStartedAt ?? polledAt;
    if (streak >= RAISE_AFTER) return { raised: true, since: streakStartedAt, streak: 0, streakStartedAt: null };
    return { ...state, streak, streakStartedAt };
  }
  if (isDual) return { ...state, streak: 0, streakStartedAt: null };
  const streak = state.streak + 1;
  if (streak >= CLEAR_AFTER) return QUIET;
  return { ...state, streak, streakStartedAt: state.streakStartedAt ?? polledAt };
}
