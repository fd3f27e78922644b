// Phase 1 of the broker command sequence, before anything is written: where the command goes (one target per
// logical node from the polled serving state, or the one node it names; clusters' `loadCommandTargets`) and whether
// it may go there at all (a destination reaching the broker's own addresses is refused with 400). After the audit
// row, each target becomes the read-only view its estimate gets.
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { readManagementLimits } from '@/modules/platform/broker/index.ts';
import {
  loadCommandTargets,
  managementClientFor,
  reservedAddressesOf,
  type CommandTargets,
} from '@/modules/platform/clusters/index.ts';
import type { BrokerCommand, CommandNodeView, CommandRuntime } from './command-types.ts';
import { refuseReservedDestinations } from './reserved-destinations.ts';

export interface ResolvedTargets {
  readonly found: CommandTargets;
  /** The cluster's reported management and notification addresses. */
  readonly reservedAddresses: readonly string[];
  /** The command's destinations, checked: the only addresses its `send` may reach. */
  readonly destinations: readonly string[];
}

function clusterGone(): ProblemError {
  return new ProblemError({ type: 'not-found', title: 'Not found', status: 404, detail: 'No such cluster.' });
}

/** 404 when the cluster is gone, 409 when a named node is not serving, 400 when a destination is reserved. */
export async function resolveTargets(
  runtime: Pick<CommandRuntime, 'prisma' | 'notifications' | 'bus'>,
  command: Pick<BrokerCommand, 'clusterId' | 'nodeId' | 'destinations'>,
): Promise<ResolvedTargets> {
  const found = await loadCommandTargets(runtime.prisma, command.clusterId, command.nodeId);
  if (!found) throw clusterGone();
  const destinations = command.destinations ?? [];
  const reservedAddresses = await reservedAddressesOf(runtime.prisma, command.clusterId);
  refuseReservedDestinations(reservedAddresses, destinations);
  return { found, reservedAddresses, destinations };
}

/** Each target's reads: its management client under the current limits, its native endpoint. */
export function nodeViewsOf(runtime: Pick<CommandRuntime, 'settings'>, found: CommandTargets): CommandNodeView[] {
  const limits = readManagementLimits((key) => runtime.settings.value(key));
  return found.targets.map((target): CommandNodeView => ({
    nodeId: target.nodeId,
    nodeName: target.nodeName,
    logicalNode: target.logicalNode,
    client: managementClientFor(target.nodeId, target.endpoint, limits),
    native: target.native,
    subscriptionLive: target.subscriptionLive,
  }));
}
