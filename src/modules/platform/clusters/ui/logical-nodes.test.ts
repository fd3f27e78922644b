import { describe, expect, it } from 'vitest';
import { groupLogicalNodes } from './logical-nodes.ts';

describe('logical nodes', () => {
  it('pairs by logical node, primary first, serving = the active member', () => {
    const groups = groupLogicalNodes([
      { id: 'b', logicalNode: '1', role: 'BACKUP', active: true },
      { id: 'p', logicalNode: '1', role: 'PRIMARY', active: false },
      { id: 'x', logicalNode: '2', role: 'PRIMARY', active: null },
    ]);
    expect(groups.map((group) => group.members.map((node) => node.id))).toEqual([['p', 'b'], ['x']]);
    expect(groups[0]?.serving?.id).toBe('b');
    expect(groups[1]?.serving).toBeUndefined();
    expect(groups[0]?.severalActive).toBe(false);
  });

  it('flags two active members of one pair', () => {
    const [group] = groupLogicalNodes([
      { id: 'p', logicalNode: '1', role: 'PRIMARY', active: true },
      { id: 'b', logicalNode: '1', role: 'BACKUP', active: true },
    ]);
    expect(group?.severalActive).toBe(true);
  });
});
