// How healthy a cluster or node looks from what the scrape side last recorded: pure, so the rule is tested.

export type Health = 'healthy' | 'degraded' | 'down' | 'unknown';

/** Older than this, a node's last success counts as stale (several tier-A cycles missed). */
export const STALE_AFTER_MS = 60_000;

export function nodeHealth(
  node: { lastSuccessAt: string | null; lastFailureAt: string | null },
  now: number = Date.now(),
): Health {
  const success = node.lastSuccessAt ? Date.parse(node.lastSuccessAt) : undefined;
  const failure = node.lastFailureAt ? Date.parse(node.lastFailureAt) : undefined;
  if (success === undefined && failure === undefined) return 'unknown';
  if (success === undefined || (failure !== undefined && failure > success)) return 'down';
  return now - success > STALE_AFTER_MS ? 'degraded' : 'healthy';
}

export function clusterHealth(row: {
  nodeCount: number;
  failingNodeCount: number;
  unservedLogicalNodeCount?: number;
  lastSuccessAt: string | null;
}): Health {
  if (row.nodeCount === 0 || row.lastSuccessAt === null) return row.failingNodeCount > 0 ? 'down' : 'unknown';
  if (row.failingNodeCount === row.nodeCount) return 'down';
  // A logical node with no active member serves nobody, whatever its nodes' polls say.
  return row.failingNodeCount > 0 || (row.unservedLogicalNodeCount ?? 0) > 0 ? 'degraded' : 'healthy';
}

export const HEALTH_COLORS: Record<Health, string> = {
  healthy: 'teal',
  degraded: 'yellow',
  down: 'red',
  unknown: 'gray',
};
