// The resources dialogs' words: nodes counted by outcome, "node" or "nodes", the routing types chosen.
import { describe, expect, it } from 'vitest';
import type { CommandResult } from '@/modules/platform/commands/ui.ts';
import { acting, nodesWord, routingTypesOf } from './command-words.ts';

const result = (...outcomes: string[]) =>
  ({ nodes: outcomes.map((outcome, index) => ({ nodeId: `n${index}`, outcome })) }) as unknown as CommandResult;

describe('command words', () => {
  it('counts the nodes with the outcome asked', () => {
    const preview = result('WOULD_APPLY', 'WOULD_APPLY', 'REFUSED');
    expect(acting(preview, 'WOULD_APPLY')).toBe(2);
    expect(acting(preview, 'APPLIED')).toBe(0);
  });

  it('says node or nodes', () => {
    expect([0, 1, 2].map(nodesWord)).toEqual(['0 nodes', '1 node', '2 nodes']);
  });

  it('lists the routing types chosen, anycast first', () => {
    expect(routingTypesOf(true, true)).toEqual(['ANYCAST', 'MULTICAST']);
    expect(routingTypesOf(false, true)).toEqual(['MULTICAST']);
    expect(routingTypesOf(false, false)).toEqual([]);
  });
});
