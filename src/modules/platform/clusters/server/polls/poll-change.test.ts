import { describe, expect, it } from 'vitest';
import { haChange, type PersistedNodeState } from './poll-change.ts';

describe('what a node poll changed', () => {
  const polled = { active: true, started: true, backup: false, replicaSync: false, nodeId: 'n1' };
  const persisted: PersistedNodeState = {
    active: true,
    started: true,
    backup: false,
    replicaSync: false,
    brokerNodeId: 'n1',
    lastSuccessAt: new Date('2026-11-22T12:00:00Z'),
    lastFailureAt: null,
  };
  it('signals nothing when a poll repeats the persisted state', () => {
    expect(haChange(persisted, polled)).toEqual({ health: false, topology: false });
  });
  it('signals health for a replication change and topology for a role change', () => {
    expect(haChange(persisted, { ...polled, replicaSync: true })).toEqual({ health: true, topology: false });
    expect(haChange(persisted, { ...polled, active: false })).toEqual({ health: true, topology: true });
  });
  it('signals on reachability changes only', () => {
    expect(haChange(persisted, undefined)).toEqual({ health: true, topology: true });
    const failing = { ...persisted, lastFailureAt: new Date('2026-11-22T12:00:05Z') };
    expect(haChange(failing, undefined)).toEqual({ health: false, topology: false });
    expect(haChange(failing, polled)).toEqual({ health: true, topology: true });
    expect(haChange({ ...persisted, lastSuccessAt: null }, polled)).toEqual({ health: true, topology: true });
  });
});
