// The words the resources dialogs build from a broker command's answer and form: how many nodes act, the routing
// types chosen. Pure, so the unit test pins them.
import type { CommandResult } from '@/modules/platform/commands/ui.ts';

type RoutingType = 'ANYCAST' | 'MULTICAST';

/** Nodes whose outcome is the one asked: those that would act in a preview, or did in a run. */
export const acting = (result: CommandResult, outcome: 'WOULD_APPLY' | 'APPLIED') =>
  result.nodes.filter((node) => node.outcome === outcome).length;

export const nodesWord = (count: number) => `${count} ${count === 1 ? 'node' : 'nodes'}`;

export function routingTypesOf(anycast: boolean, multicast: boolean): RoutingType[] {
  return [...(anycast ? ['ANYCAST' as const] : []), ...(multicast ? ['MULTICAST' as const] : [])];
}
