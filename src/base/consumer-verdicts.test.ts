import { describe, expect, it } from 'vitest';
import {
  NEEDS_ATTENTION,
  VERDICTS,
  VERDICTS_WORST_FIRST,
  isVerdict,
  needsAttention,
  verdictLabel,
} from './consumer-verdicts.ts';

describe('the consumer-health vocabulary', () => {
  it('reads the same verdicts worst first as the ladder decides with', () => {
    expect([...VERDICTS_WORST_FIRST].sort()).toEqual([...VERDICTS].sort());
    expect(new Set(VERDICTS_WORST_FIRST).size).toBe(VERDICTS.length);
  });

  it('needs someone for every verdict but the calm three, worst first', () => {
    expect(NEEDS_ATTENTION).toEqual(['BROKER_SLOW', 'STALLED', 'STARVED', 'NO_CONSUMERS', 'FALLING_BEHIND', 'PAUSED']);
    expect(VERDICTS.filter(needsAttention)).toEqual(VERDICTS.filter((verdict) => NEEDS_ATTENTION.includes(verdict)));
  });

  it('knows its names and writes them in words', () => {
    expect(isVerdict('STALLED')).toBe(true);
    expect(isVerdict('SLEEPY')).toBe(false);
    expect(verdictLabel('NO_CONSUMERS')).toBe('no consumers');
  });
});
