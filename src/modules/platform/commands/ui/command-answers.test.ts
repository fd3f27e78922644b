import { describe, expect, it } from 'vitest';
import { auditPath, capRefusal, failedNodes } from './command-answers.ts';

const refusal = (problem: Record<string, unknown>) => ({ data: { problem: { title: 'Refused', ...problem } } });

describe('what the operation dialog reads out of a refusal', () => {
  it('takes the numbers of a bulk-cap refusal, and of nothing else', () => {
    expect(capRefusal(refusal({ type: 'bulk-cap-exceeded', affectedCount: 12_000, cap: 10_000 }))).toEqual({
      affectedCount: 12_000,
      cap: 10_000,
    });
    expect(capRefusal(refusal({ type: 'bulk-cap-exceeded', cap: 10_000 }))).toBeUndefined();
    expect(capRefusal(refusal({ type: 'broker-command-failed', affectedCount: 1, cap: 1 }))).toBeUndefined();
    expect(capRefusal(new Error('network'))).toBeUndefined();
  });

  it('takes the per-node outcomes a refusal of every node carries', () => {
    const nodes = [{ nodeId: 'n1', outcome: 'FAILED' }];
    expect(failedNodes(refusal({ type: 'broker-command-failed', nodes }))).toEqual(nodes);
    expect(failedNodes(refusal({ type: 'broker-command-failed' }))).toBeUndefined();
  });

  it('links the audit log filtered to the operation’s real rows on its target', () => {
    expect(auditPath('QUEUE_PURGE', 'orders & co')).toBe('/audit?action=QUEUE_PURGE&q=orders+%26+co&dryRun=false');
  });
});
