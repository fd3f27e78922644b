import { describe, expect, it } from 'vitest';
import { VERDICTS, type Verdict } from '@/base/consumer-verdicts.ts';
import { healthSummaryText } from './health-summary-text.ts';

const counts = (given: Partial<Record<Verdict, number>>): Record<Verdict, number> =>
  Object.fromEntries(VERDICTS.map((verdict) => [verdict, given[verdict] ?? 0])) as Record<Verdict, number>;

describe('healthSummaryText', () => {
  it('counts the queues that need attention', () => {
    expect(healthSummaryText(counts({ STALLED: 1, HEALTHY: 4 }))).toBe('1 queue needs attention');
    expect(healthSummaryText(counts({ STALLED: 1, FALLING_BEHIND: 2, DRAINING: 1 }))).toBe('3 queues need attention');
  });

  it('says no queue needs attention only of judged queues, and how many were not judged', () => {
    expect(healthSummaryText(counts({ HEALTHY: 3, DRAINING: 1 }))).toBe('No queue needs attention');
    expect(healthSummaryText(counts({ HEALTHY: 3, INSUFFICIENT_DATA: 2 }))).toBe(
      'No queue needs attention; 2 queues not judged (too few samples)',
    );
    expect(healthSummaryText(counts({ PAUSED: 1, INSUFFICIENT_DATA: 1 }))).toBe(
      '1 queue needs attention; 1 queue not judged (too few samples)',
    );
  });

  it('does not call a cluster with no judged queue healthy (its nodes stopped answering, or it is new)', () => {
    expect(healthSummaryText(counts({ INSUFFICIENT_DATA: 11 }))).toBe('11 queues not judged yet (too few samples)');
  });

  it('says nothing needs attention on a cluster without queues', () => {
    expect(healthSummaryText(counts({}))).toBe('No queue needs attention');
  });
});
