import { describe, expect, it } from 'vitest';
import { clusterHealth, nodeHealth, STALE_AFTER_MS } from './cluster-health.ts';

const now = Date.parse('2026-11-22T05:00:00Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('health', () => {
  it('a node is healthy when its last success is fresh and newer than any failure', () => {
    expect(nodeHealth({ lastSuccessAt: ago(1_000), lastFailureAt: ago(5_000) }, now)).toBe('healthy');
    expect(nodeHealth({ lastSuccessAt: ago(STALE_AFTER_MS + 1), lastFailureAt: null }, now)).toBe('degraded');
    expect(nodeHealth({ lastSuccessAt: ago(5_000), lastFailureAt: ago(1_000) }, now)).toBe('down');
    expect(nodeHealth({ lastSuccessAt: null, lastFailureAt: null }, now)).toBe('unknown');
  });

  it('a cluster is down when every node fails and degraded when some do', () => {
    const base = { nodeCount: 2, lastSuccessAt: ago(1_000) };
    expect(clusterHealth({ ...base, failingNodeCount: 0 })).toBe('healthy');
    expect(clusterHealth({ ...base, failingNodeCount: 1 })).toBe('degraded');
    expect(clusterHealth({ ...base, failingNodeCount: 2 })).toBe('down');
    expect(clusterHealth({ nodeCount: 2, lastSuccessAt: null, failingNodeCount: 0 })).toBe('unknown');
    expect(clusterHealth({ ...base, failingNodeCount: 0, unservedLogicalNodeCount: 1 })).toBe('degraded');
  });
});
