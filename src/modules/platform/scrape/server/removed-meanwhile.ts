// A scrape's write that lost the race with a removal: the tier's rows name the cluster and node it was started for,
// and the cluster was removed (or the node dropped) while the tier was read. No fault: nothing to keep, nothing to log
// as an error (clean-clone runs logged one at every shared-console file's removal).

export const REMOVED_MEANWHILE_MESSAGE = 'the cluster or node was removed while its tier was read; nothing kept';

const FOREIGN_KEY_VIOLATION = '23503';
const CLUSTER_OR_NODE_KEY = /_(cluster|node)_id_fkey$/;

/**
 * The constraint PostgreSQL named when it refused a row because its cluster or node row is gone (foreign_key_violation
 * on a `…_cluster_id_fkey` or `…_node_id_fkey` constraint); undefined for any other error.
 */
export function removedMeanwhile(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  if (code !== FOREIGN_KEY_VIOLATION || typeof constraint !== 'string') return undefined;
  return CLUSTER_OR_NODE_KEY.test(constraint) ? constraint : undefined;
}
