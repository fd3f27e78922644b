import { describe, expect, it } from 'vitest';
import { globalPermissions } from '@/modules/kernel/access/index.ts';
import { grantsFromGroups, withPermissions } from './group-mappings.ts';

const mappings = [
  { groupName: 'ops', roleId: 'operator', scope: { kind: 'GLOBAL' } as const },
  { groupName: 'ops', roleId: 'admin', scope: { kind: 'CLUSTER', id: 'c1' } as const },
  { groupName: 'platform', roleId: 'admin', scope: { kind: 'GLOBAL' } as const },
];

describe('grantsFromGroups', () => {
  it('gives the roles of every mapping whose group the account holds, at the mapping scope', () => {
    expect(grantsFromGroups(['ops', 'unrelated'], mappings, null)).toEqual([
      { roleId: 'operator', scope: { kind: 'GLOBAL' } },
      { roleId: 'admin', scope: { kind: 'CLUSTER', id: 'c1' } },
    ]);
  });

  it('adds the default role globally, with or without groups', () => {
    expect(grantsFromGroups([], mappings, 'viewer')).toEqual([{ roleId: 'viewer', scope: { kind: 'GLOBAL' } }]);
    expect(grantsFromGroups(['platform'], mappings, 'viewer')).toEqual([
      { roleId: 'viewer', scope: { kind: 'GLOBAL' } },
      { roleId: 'admin', scope: { kind: 'GLOBAL' } },
    ]);
  });

  it('matches group names exactly (a removed or renamed group gives nothing)', () => {
    expect(grantsFromGroups(['OPS', 'ops-team'], mappings, null)).toEqual([]);
  });

  it('turns roles into permissions; a role that is gone gives none', () => {
    const grants = withPermissions(
      grantsFromGroups(['ops'], mappings, 'gone'),
      new Map([
        ['operator', ['audit:read', 'jobs:read']],
        ['admin', ['settings:write']],
      ]),
    );
    expect([...globalPermissions(grants)].sort()).toEqual(['audit:read', 'jobs:read']);
    expect(grants.find((grant) => grant.scope.kind === 'CLUSTER')?.permissions).toEqual(['settings:write']);
  });
});
