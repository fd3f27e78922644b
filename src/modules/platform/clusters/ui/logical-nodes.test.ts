import { describe, expect, it } from 'vitest';
import { groupLogicalNodes } from './logical-nodes.ts';

describe('logical nodes', () => {
  it('pairs by logical node, primary first, serving = the member the HA pass marked serving', () => {
    const groups = groupLogicalNodes([
      { id: 'b', logicalNode: '1', role: 'BACKUP', active: true, serving: true },
      // A killed primary keeps its last polled Active=true; it no longer serves.
      { id: 'p', logicalNode: '1', role: 'PRIMARY', active: true, serving: false },
      { id: 'x', logicalNode: '2', role: 'PRIMARY', active: null, serving: false },
    ]);
    expect(groups.map((group) => group.members.map((node) => node.id))).toEqual([['p', 'b'], ['x']]);
    expect(groups[0]?.serving?.id).toBe('b');
    expect(groups[1]?.serving).toBeUndefined();
    expect(groups[0]?.severalActive).toBe(false);
  });

  it('flags two active members of one pair', () => {
    const [group] = groupLogicalNodes([
      { id: 'p', logicalNode: '1', role: 'PRIMARY', active: true, serving: true },
      { id: 'b', logicalNode: '1', role: 'BACKUP', active: true, serving: true },
    ]);
    expect(group?.severalActive).toBe(true);
  });
});
