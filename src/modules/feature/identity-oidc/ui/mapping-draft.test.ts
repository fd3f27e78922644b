// The group-mappings rows as edited, and the PUT body they become.
import { describe, expect, it } from 'vitest';
import { blankDraft, patchDraft, toBody, toDrafts } from './mapping-draft.ts';

const stored = [
  { groupName: 'ops', roleId: 'r-operator', scope: { kind: 'GLOBAL' as const } },
  { groupName: 'dev', roleId: 'r-viewer', scope: { kind: 'CLUSTER' as const, id: 'c-1' } },
];

describe('mapping drafts', () => {
  it('round-trips the stored set, trimming names and scope ids and dropping the id of a global scope', () => {
    const drafts = toDrafts(stored);
    expect(drafts.map((row) => row.key)).toEqual([0, 1]);
    expect(toBody(drafts)).toEqual(stored);
    const edited = patchDraft(drafts, 0, { groupName: ' ops ', scopeId: 'ignored' });
    expect(toBody(edited)[0]).toEqual({ groupName: 'ops', roleId: 'r-operator', scope: { kind: 'GLOBAL' } });
  });

  it('changes only the row named', () => {
    const drafts = toDrafts(stored);
    const edited = patchDraft(drafts, 1, { scopeKind: 'ENVIRONMENT', scopeId: ' prod ' });
    expect(edited[0]).toBe(drafts[0]);
    expect(toBody(edited)[1]?.scope).toEqual({ kind: 'ENVIRONMENT', id: 'prod' });
  });

  it('adds an empty global row with a key no row has', () => {
    expect(blankDraft([])).toEqual({ key: 0, groupName: '', roleId: '', scopeKind: 'GLOBAL', scopeId: '' });
    expect(blankDraft(toDrafts(stored)).key).toBe(2);
    expect(blankDraft([{ ...blankDraft([]), key: 7 }]).key).toBe(8);
  });
});
