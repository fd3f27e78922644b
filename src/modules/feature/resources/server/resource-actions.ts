// Address and connection operations, each one broker command (platform/clusters runs the sequence): create and
// delete an address on every logical node, and close a connection on the node that issued it. The resources lists
// drop what they keep of the cluster afterwards, so the next read shows the change.
import type { RequestContext } from '@/modules/kernel/core/index.ts';
import { listResourcePages, type ManagementClient } from '@/modules/platform/broker/index.ts';
import { runBrokerCommand, type CommandResult, type CommandRuntime } from '@/modules/platform/commands/index.ts';
import { forgetLiveLists } from './live-read.ts';

interface Flags {
  readonly clusterId: string;
  readonly dryRun: boolean;
}

async function thenForget(clusterId: string, command: Promise<CommandResult>): Promise<CommandResult> {
  try {
    return await command;
  } finally {
    forgetLiveLists(clusterId);
  }
}

export function createAddress(
  runtime: CommandRuntime,
  request: RequestContext,
  input: Flags & { readonly name: string; readonly routingTypes: readonly ('ANYCAST' | 'MULTICAST')[] },
): Promise<CommandResult> {
  return thenForget(
    input.clusterId,
    runBrokerCommand(runtime, request, {
      clusterId: input.clusterId,
      action: 'address.create',
      target: input.name,
      parameters: { routingTypes: input.routingTypes },
      dryRun: input.dryRun,
      capped: false,
      topic: 'queues',
      // An address of the broker's own (notification, management, internal) is refused before the audit row.
      destinations: [input.name],
      estimate: () => Promise.resolve(1),
      apply: async (node) => {
        await node.writes.createAddress(node.client, input.name, input.routingTypes);
        return { count: 1 };
      },
    }),
  );
}

/** How many rows of a broker list have `field` equal to `value` on this node. */
async function countWhere(client: ManagementClient, kind: 'addresses' | 'connections', field: string, value: string) {
  const [page] = await listResourcePages(client, kind, [
    { filter: { field, operation: 'EQUALS', value }, page: 1, pageSize: 1 },
  ]);
  return page?.total ?? 0;
}

/** Without force, the broker refuses an address that still has queues; with it, they go too. */
export function deleteAddress(
  runtime: CommandRuntime,
  request: RequestContext,
  input: Flags & { readonly name: string; readonly force: boolean },
): Promise<CommandResult> {
  return thenForget(
    input.clusterId,
    runBrokerCommand(runtime, request, {
      clusterId: input.clusterId,
      action: 'address.delete',
      target: input.name,
      parameters: { force: input.force },
      dryRun: input.dryRun,
      capped: false,
      topic: 'queues',
      destinations: [input.name],
      estimate: async (node) => ((await countWhere(node.client, 'addresses', 'name', input.name)) > 0 ? 1 : undefined),
      apply: async (node) => {
        await node.writes.deleteAddress(node.client, input.name, input.force);
        return { count: 1 };
      },
    }),
  );
}

/** On the node that issued the connection id; a node that no longer has it says so (count 0). */
export function closeConnection(
  runtime: CommandRuntime,
  request: RequestContext,
  input: Flags & { readonly connectionId: string; readonly nodeId: string },
): Promise<CommandResult> {
  return thenForget(
    input.clusterId,
    runBrokerCommand(runtime, request, {
      clusterId: input.clusterId,
      action: 'connection.close',
      target: input.connectionId,
      parameters: { nodeId: input.nodeId },
      dryRun: input.dryRun,
      capped: false,
      nodeId: input.nodeId,
      topic: 'connections',
      estimate: async (node) =>
        (await countWhere(node.client, 'connections', 'connectionID', input.connectionId)) > 0 ? 1 : undefined,
      apply: async (node) => ({ count: (await node.writes.closeConnection(node.client, input.connectionId)) ? 1 : 0 }),
    }),
  );
}
