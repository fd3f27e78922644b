import { describe, expect, it } from 'vitest';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { auditDetail } from './audit.ts';
import type { NodeResult } from './command-types.ts';
import { answerOf, summarise } from './finish.ts';

const failure = {
  kind: 'permission-denied',
  message: 'not allowed to removeAllMessages',
  advice: 'Grant the role manage.',
  configSnippet: '<security-setting match="#">…</security-setting>',
};
const node = (name: string, outcome: NodeResult['outcome'], count: number | null = null): NodeResult => ({
  nodeId: `id-${name}`,
  nodeName: name,
  logicalNode: `logical-${name}`,
  outcome,
  estimate: count,
  count,
  failure: outcome === 'FAILED' ? failure : null,
});
const counts = { affectedCount: 7, cap: 1_000 };

describe('the finish phase', () => {
  it('sums a run up from its nodes', () => {
    expect(summarise([node('a', 'APPLIED', 3), node('b', 'APPLIED', 4)])).toMatchObject({
      outcome: 'SUCCEEDED',
      appliedCount: 7,
    });
    expect(summarise([node('a', 'APPLIED', 3), node('b', 'FAILED')])).toMatchObject({
      outcome: 'PARTIAL',
      appliedCount: 3,
    });
    expect(summarise([node('a', 'FAILED'), node('b', 'NOT_PRESENT')]).outcome).toBe('FAILED');
    expect(summarise([node('a', 'NOT_PRESENT')]).outcome).toBe('FAILED');
  });

  it('answers a run where no node had anything to act on as done, every node saying so', () => {
    const nodes = [node('a', 'NOT_PRESENT'), node('b', 'NOT_PRESENT')];
    const answer = answerOf('audit-1', { action: 'queue.purge' }, { ...counts, nodes, summary: summarise(nodes) });
    expect(answer).toEqual({
      auditId: 'audit-1',
      action: 'queue.purge',
      dryRun: false,
      outcome: 'SUCCEEDED',
      affectedCount: 7,
      appliedCount: 0,
      cap: 1_000,
      nodes,
    });
  });

  it('answers 502 broker-command-failed when every node that acted failed, with the first advice and snippet', () => {
    const nodes = [node('a', 'FAILED'), node('b', 'NOT_PRESENT')];
    let thrown: unknown;
    try {
      answerOf('audit-2', { action: 'queue.purge' }, { ...counts, nodes, summary: summarise(nodes) });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProblemError);
    expect((thrown as ProblemError).problem).toMatchObject({
      type: 'broker-command-failed',
      status: 502,
      detail: 'Every node failed: a: not allowed to removeAllMessages. Grant the role manage.',
      nodes,
      configSnippet: failure.configSnippet,
      auditId: 'audit-2',
    });
  });

  it('keeps each node in the audit row with its error, and the split-brain members left out', () => {
    expect(auditDetail([node('a', 'APPLIED', 3), node('b', 'FAILED')], ['c'])).toEqual({
      nodes: [
        { nodeId: 'id-a', nodeName: 'a', outcome: 'APPLIED', estimate: 3, count: 3 },
        {
          nodeId: 'id-b',
          nodeName: 'b',
          outcome: 'FAILED',
          estimate: null,
          count: null,
          error: 'permission-denied: not allowed to removeAllMessages',
        },
      ],
      splitBrainSkipped: ['c'],
    });
    expect(auditDetail([], [])).toEqual({ nodes: [] });
  });
});
