// The consumer-health verdicts' one vocabulary: their names, the order they are read in and which of them need
// someone. Metrics judges them; queues, triage, alerting, the MCP tools and the console's badges name them. Here on
// the ground floor because several of those work with the metrics module off, and a list spelled out again drifts.
// The conditions behind each verdict are in docs/metrics.md; edit this file when a verdict is added or renamed.

/** The ladder's order: the first verdict whose condition holds wins (metrics' evaluation decides in this order). */
export const VERDICTS = [
  'INSUFFICIENT_DATA',
  'PAUSED',
  'NO_CONSUMERS',
  'BROKER_SLOW',
  'STALLED',
  'STARVED',
  'FALLING_BEHIND',
  'DRAINING',
  'HEALTHY',
] as const;
export type Verdict = (typeof VERDICTS)[number];

/** Worst first: what needs someone's attention leads every list (the ladder's order is for deciding, this one for reading). */
export const VERDICTS_WORST_FIRST: readonly Verdict[] = [
  'BROKER_SLOW',
  'STALLED',
  'STARVED',
  'NO_CONSUMERS',
  'FALLING_BEHIND',
  'PAUSED',
  'INSUFFICIENT_DATA',
  'DRAINING',
  'HEALTHY',
];

/** Verdicts nobody needs to act on: the backlog drains or there is none, or too little is known to say. */
const CALM: ReadonlySet<Verdict> = new Set(['INSUFFICIENT_DATA', 'DRAINING', 'HEALTHY']);

/** The verdicts that need someone, worst first: what "needs attention" means on every screen and in every count. */
export const NEEDS_ATTENTION: readonly Verdict[] = VERDICTS_WORST_FIRST.filter((verdict) => !CALM.has(verdict));

export const needsAttention = (verdict: Verdict): boolean => !CALM.has(verdict);

export const isVerdict = (name: string): name is Verdict => (VERDICTS as readonly string[]).includes(name);

/** `NO_CONSUMERS` → `no consumers`: how the console writes a verdict in a badge or a chip. */
export const verdictLabel = (verdict: string): string => verdict.toLowerCase().replaceAll('_', ' ');
