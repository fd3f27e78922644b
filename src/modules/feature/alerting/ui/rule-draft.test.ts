// The rule editor's draft: what is still missing, and what the API is sent.
import { describe, expect, it } from 'vitest';
import { EMPTY_DRAFT, inputOf } from './rule-draft.ts';

describe('rule draft', () => {
  it('names what is missing, the scope’s cluster included', () => {
    expect(inputOf({ ...EMPTY_DRAFT, scope: 'cluster' }, undefined)).toEqual({
      missing: ['Name', 'Condition', 'Cluster'],
    });
  });

  it('sends the scope it names, labels as key=value lines, a blank pattern as none', () => {
    const draft = {
      ...EMPTY_DRAFT,
      name: ' stuck ',
      kind: 'consumer-health',
      scope: 'cluster' as const,
      clusterId: 'c1',
      environmentId: 'e1',
      pattern: '  ',
      labels: 'team = payments\noncall\n',
    };
    expect(inputOf(draft, undefined).input).toMatchObject({
      name: 'stuck',
      clusterId: 'c1',
      environmentId: null,
      pattern: null,
      labels: { team: 'payments', oncall: '' },
    });
  });
});
