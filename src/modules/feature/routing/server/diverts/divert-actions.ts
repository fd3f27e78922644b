// Divert create and remove, each one broker command (platform/commands runs the sequence: reserved addresses refused,
// audit row first, dry run, per-node outcome, the `queues` signal after the commit). Before it, the nodes' routing is
// read afresh for what only the whole cluster shows (divert-checks.ts); each node then decides for itself in the
// estimate, from its own diverts at that moment. Afterwards the routing read kept for the cluster is dropped, so
// the next list and graph show the change.
import type { RequestContext } from '@/modules/kernel/core/index.ts';
import { listDiverts } from '@/modules/platform/broker/index.ts';
import { runBrokerCommand, type CommandResult, type CommandRuntime } from '@/modules/platform/commands/index.ts';
import type { SettingsReader } from '@/modules/kernel/plugin/index.ts';
import { forgetRoutingViews, readRoutingViews } from '../live/read-routing.ts';
import { divertToRemove, refuseCreate, type DivertDefinition } from './divert-checks.ts';
import { refuseBadFilter } from './divert-filter.ts';

export type DivertsRuntime = CommandRuntime & { readonly settings: SettingsReader };

/** The stream topic of address and queue changes (resources signals it too): the routing screen is live on it. */
const DIVERT_TOPIC = 'queues';

interface Flags {
  readonly clusterId: string;
  readonly dryRun: boolean;
}

/** The nodes' routing as it is now, not as kept for the list a moment ago. */
async function readNow(runtime: DivertsRuntime, clusterId: string) {
  forgetRoutingViews(clusterId);
  return readRoutingViews(runtime, clusterId);
}

async function thenForget(clusterId: string, command: Promise<CommandResult>): Promise<CommandResult> {
  try {
    return await command;
  } finally {
    forgetRoutingViews(clusterId);
  }
}

const hasDivert = async (client: Parameters<typeof listDiverts>[0], name: string) =>
  (await listDiverts(client)).some((divert) => divert.name === name);

export async function createDivert(
  runtime: DivertsRuntime,
  request: RequestContext,
  input: Flags & DivertDefinition,
): Promise<CommandResult> {
  const { clusterId, dryRun, ...divert } = input;
  refuseBadFilter(divert.filter);
  const read = await readNow(runtime, clusterId);
  // No cluster: the sequence answers the same 404 as for any command.
  if (read) refuseCreate(read.views, divert);
  return thenForget(
    clusterId,
    runBrokerCommand(runtime, request, {
      clusterId,
      action: 'divert.create',
      target: divert.name,
      parameters: {
        address: divert.address,
        forwardingAddress: divert.forwardingAddress,
        exclusive: divert.exclusive,
        filter: divert.filter,
        routingType: divert.routingType,
      },
      dryRun,
      capped: false,
      topic: DIVERT_TOPIC,
      // A divert from or to the broker's own (management, notification, internal) addresses is refused before the
      // audit row: it would copy broker events out, or forge management requests in.
      destinations: [divert.address, divert.forwardingAddress],
      // A node that has it already (the others lacked it) is left alone.
      estimate: async (node) => ((await hasDivert(node.client, divert.name)) ? undefined : 1),
      apply: async (node) => {
        await node.writes.config.apply(node.client, {
          op: 'createDivert',
          divert: { ...divert, transformerClassName: null },
        });
        return { count: 1 };
      },
    }),
  );
}

export async function removeDivert(
  runtime: DivertsRuntime,
  request: RequestContext,
  input: Flags & { readonly name: string },
): Promise<CommandResult> {
  const { clusterId, dryRun, name } = input;
  const read = await readNow(runtime, clusterId);
  const known = read ? divertToRemove(read.views, name, read.failures.length === 0) : undefined;
  return thenForget(
    clusterId,
    runBrokerCommand(runtime, request, {
      clusterId,
      action: 'divert.remove',
      target: name,
      // What it was, so the audit row is enough to create it again.
      parameters: known
        ? {
            address: known.address,
            forwardingAddress: known.forwardingAddress,
            exclusive: known.exclusive,
            filter: known.filter,
            routingType: known.routingType,
            transformerClassName: known.transformerClassName,
          }
        : {},
      dryRun,
      capped: false,
      topic: DIVERT_TOPIC,
      // A divert of the broker's own plumbing is not Flotilla's to remove.
      destinations: known ? [known.address, known.forwardingAddress] : [],
      estimate: async (node) => ((await hasDivert(node.client, name)) ? 1 : undefined),
      apply: async (node) => {
        await node.writes.config.apply(node.client, { op: 'destroyDivert', name });
        return { count: 1 };
      },
    }),
  );
}
