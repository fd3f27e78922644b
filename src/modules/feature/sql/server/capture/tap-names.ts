// What a capture tap is called on a broker: `flotilla.capture.<deployment>.<address>.<sub>.<node>` for its address
// and queue, the same plus `.divert` for its divert (a divert cannot share a name with a queue: both are bindings). The
// deployment segment is this installation's id kept in the database (deployment-id.ts, ADR 22), so every instance of
// one installation names a tap alike and a renamed host orphans nothing; `<sub>` is the subscription id's first
// eight hex digits, short enough to read, long enough not to meet another subscription of the same address.
import { createHash } from 'node:crypto';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import type { TapNames } from '@/modules/platform/broker/index.ts';

const TAP_PREFIX = 'flotilla.capture.';
const DIVERT_SUFFIX = '.divert';

/**
 * A tap's names. With `node` (nodeSegmentOf a logical node) the names of its tap on that node: each node's capture
 * address is its own, because a clustered broker load-balances a message routed to an address among every node's
 * queue of that name, so one shared name would drain a copy on another node than the one the message passed. `match`
 * covers the tap on every node (an address-settings or security-settings match).
 */
export function tapNamesOf(
  deploymentId: string,
  address: string,
  subscriptionId: string,
  node?: string,
): TapNames & { readonly match: string } {
  const sub = subscriptionId.replace(/-/g, '').slice(0, 8).toLowerCase();
  const base = `${TAP_PREFIX}${deploymentId}.${address}.${sub}`;
  const queue = node ? `${base}.${node}` : base;
  return { queue, divert: `${queue}${DIVERT_SUFFIX}`, match: `${base}.#` };
}

/** A logical node's word in its taps' names: stable across a failover (a pair is one logical node). */
export function nodeSegmentOf(logicalNode: string): string {
  return `n${createHash('sha256').update(logicalNode).digest('hex').slice(0, 6)}`;
}

/** The tap of this deployment a divert belongs to, or undefined for any other divert (another installation's too). */
export function ownTapOf(
  deploymentId: string,
  divert: { readonly name: string; readonly forwardingAddress: string },
): TapNames | undefined {
  if (!divert.name.startsWith(ownTapPrefix(deploymentId)) || !divert.name.endsWith(DIVERT_SUFFIX)) return undefined;
  const queue = divert.name.slice(0, -DIVERT_SUFFIX.length);
  // Only what the divert itself forwards to is removed with it; a hand-edited divert keeps its target.
  return { queue, divert: divert.name };
}

/** The first part of every tap name of this deployment: what a node's queue names are filtered by. */
export const ownTapPrefix = (deploymentId: string): string => `${TAP_PREFIX}${deploymentId}.`;

/** The tap of this deployment a capture queue belongs to (its divert may be gone), or undefined for any other queue. */
export function ownTapOfQueue(deploymentId: string, queue: string): TapNames | undefined {
  if (!queue.startsWith(ownTapPrefix(deploymentId)) || queue.endsWith(DIVERT_SUFFIX)) return undefined;
  return { queue, divert: `${queue}${DIVERT_SUFFIX}` };
}

/**
 * Why an address cannot be captured, or undefined. A divert listens on one concrete address: a wildcard would also
 * make the tap's own address-settings match a wildcard; `::` is a queue's full name; the service's own taps never tap.
 */
export function captureAddressProblem(address: string): string | undefined {
  if (address.trim() === '' || address !== address.trim()) return 'the address is empty or has surrounding spaces';
  if (/[#*]/.test(address)) return 'a capture taps one concrete address; wildcards (# and *) are not allowed';
  if (address.includes('::')) return 'name the address, not a queue (address::queue)';
  if (address.startsWith(TAP_PREFIX)) return 'a capture tap cannot itself be captured';
  return undefined;
}

/** Throws the validation problem naming why the address cannot be captured. */
export function assertCapturableAddress(address: string): void {
  const problem = captureAddressProblem(address);
  if (problem)
    throw new ProblemError({
      type: 'validation-failed',
      title: 'The request is not valid',
      status: 400,
      detail: `Address ${JSON.stringify(address)} cannot be captured: ${problem}.`,
      errors: [{ field: 'address', message: problem }],
    });
}
