// What an INTERRUPTED row says: the known part (what each node reported before the process ended), never a guess.
import { describe, expect, it } from 'vitest';
import { INTERRUPTED_TEXT, interruptionText } from './interruption.ts';

describe('interruptionText', () => {
  it('says no node reported when the work recorded nothing', () => {
    expect(interruptionText(null)).toBe(`${INTERRUPTED_TEXT} (no node reported before it ended)`);
    expect(interruptionText({ nodes: [] })).toBe(`${INTERRUPTED_TEXT} (no node reported before it ended)`);
    expect(interruptionText('not an object')).toBe(`${INTERRUPTED_TEXT} (no node reported before it ended)`);
  });

  it('names each node’s last report: applied with its count, failed, absent, or not reported yet', () => {
    const text = interruptionText({
      nodes: [
        { nodeName: 'east-1', outcome: 'APPLIED', estimate: 3000, count: 2990 },
        { nodeName: 'east-2', outcome: 'WOULD_APPLY', estimate: 200, count: null },
        { nodeName: 'east-3', outcome: 'FAILED', estimate: 5, count: null },
        { nodeName: 'east-4', outcome: 'NOT_PRESENT', estimate: null, count: null },
      ],
    });
    expect(text).toBe(
      `${INTERRUPTED_TEXT}: east-1 applied 2990; east-2 no report (200 to act on); east-3 failed; east-4 has no such queue`,
    );
  });

  it('says that the broker may have applied all, part or none of it', () => {
    expect(INTERRUPTED_TEXT).toContain('the process running it ended before it finished');
    expect(INTERRUPTED_TEXT).toContain('the broker may have applied all, part or none of it');
  });
});
