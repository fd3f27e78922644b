import { describe, expect, it } from 'vitest';
import type { RegistrationProbeNode } from './registration-check.ts';
import { logicalNodes, roleOf } from './discovery.ts';

const node = (url: string, nodeId: string | undefined, role: RegistrationProbeNode['role']): RegistrationProbeNode => ({
  managementUrl: url,
  amqpUrl: null,
  discovered: false,
  urlSource: { method: 'given', detail: 'given at registration' },
  role,
  ...(nodeId
    ? {
        state: {
          name: url,
          version: '2.44.0',
          nodeId,
          active: role === 'PRIMARY',
          backup: role === 'BACKUP',
          haPolicy: '',
        },
      }
    : {}),
});

describe('discovery', () => {
  it('takes the role from the configured HA policy, which a failover does not change', () => {
    expect(roleOf({ haPolicy: 'Replication Backup w/quorum voting', backup: false })).toBe('BACKUP');
    expect(roleOf({ haPolicy: 'Replication Primary w/quorum voting', backup: false })).toBe('PRIMARY');
    expect(roleOf({ haPolicy: 'Primary Only', backup: false })).toBe('PRIMARY');
    expect(roleOf({ haPolicy: '', backup: true })).toBe('BACKUP');
  });

  it('pairs nodes by NodeID, primary first; a node that never answered stands alone', () => {
    const groups = logicalNodes([
      node('b', 'n1', 'BACKUP'),
      node('p', 'n1', 'PRIMARY'),
      node('x', 'n2', 'PRIMARY'),
      node('dead', undefined, 'UNKNOWN'),
    ]);
    expect(groups.map((group) => [group.nodeId, group.members.map((member) => member.managementUrl)])).toEqual([
      ['n1', ['p', 'b']],
      ['n2', ['x']],
      [null, ['dead']],
    ]);
  });
});
