// The queue operations, each one broker command (platform/clusters runs the sequence: audit first, dry run, cap,
// per-node fan-out). The queue's address and routing type come from the scrape's grid; each node counts its own
// copy of the queue with countMessages (whole queue, with the filter), never a browse window; a node without the
// queue is skipped. Message operations by id name the one node holding the messages.
import { ProblemError, type RequestContext } from '@/modules/kernel/core/index.ts';
import type { SettingsReader } from '@/modules/kernel/plugin/index.ts';
import { countQueueMessages, listMessageIds, type QueueRef } from '@/modules/platform/broker/index.ts';
import {
  runBrokerCommand,
  type CommandNodeView,
  type CommandResult,
  type CommandRuntime,
} from '@/modules/platform/commands/index.ts';
import type { Database } from '@/base/db/database.ts';
import { queuesNamed } from '@/modules/platform/scrape/read/index.ts';

export interface QueueActionRuntime extends CommandRuntime {
  readonly db: Database;
  readonly settings: CommandRuntime['settings'] & Pick<SettingsReader, 'duration'>;
}

/** A message selection: a filter (JMS selector; empty means every message) or ids on one node. */
export interface Selection {
  readonly filter?: string | undefined;
  readonly messageIds?: readonly string[] | undefined;
  readonly nodeId?: string | undefined;
}

interface Flags {
  readonly dryRun: boolean;
  readonly override?: boolean | undefined;
}

export function queueNotFound(queueName: string): ProblemError {
  return new ProblemError({
    type: 'queue-not-found',
    title: 'Queue not found',
    status: 404,
    detail: `No node of this cluster has listed a queue named "${queueName}" (the scrape may not have seen it yet).`,
  });
}

/** The broker's key of a queue the grid knows (its address and routing type, for the queue's object name). */
export const refOf = (queue: { address: string; queueName: string; routingType: string }): QueueRef => ({
  address: queue.address,
  queue: queue.queueName,
  routingType: queue.routingType.toUpperCase() === 'MULTICAST' ? 'MULTICAST' : 'ANYCAST',
});

/** The queue as the grid knows it (one read of its totals row); 404 when no node listed it. */
export async function queueRefOf(db: Database, clusterId: string, queueName: string): Promise<QueueRef> {
  const queue = (await queuesNamed(db, clusterId, [queueName])).get(queueName);
  if (!queue) throw queueNotFound(queueName);
  return refOf(queue);
}

function selectionProblem(detail: string): ProblemError {
  return new ProblemError({ type: 'validation-failed', title: 'Choose the messages', status: 400, detail });
}

/** Ids need the node that holds them; a filter and ids together are ambiguous. */
function checkSelection(selection: Selection): void {
  const ids = selection.messageIds ?? [];
  if (ids.length > 0 && selection.filter !== undefined)
    throw selectionProblem('Give either a filter or message ids, not both.');
  if (ids.length > 0 && !selection.nodeId)
    throw selectionProblem('Message ids are per node: give the nodeId of the node that holds them.');
  for (const id of ids)
    if (!/^\d{1,19}$/.test(id)) throw selectionProblem(`Message id "${id}" is not a broker message id (digits).`);
}

const countOn = async (node: CommandNodeView, ref: QueueRef, filter?: string) =>
  (await countQueueMessages(node.client, [{ ref, filter }]))[0]?.count;

/** Ids count as many as were given (a filter cannot name the broker's message ids), on the node that holds them. */
async function estimateSelection(node: CommandNodeView, ref: QueueRef, selection: Selection) {
  const ids = selection.messageIds ?? [];
  if (ids.length === 0) return countOn(node, ref, selection.filter);
  return (await countOn(node, ref)) === undefined ? undefined : ids.length;
}

const selectionParameters = (selection: Selection) => ({
  ...(selection.filter !== undefined ? { filter: selection.filter } : {}),
  ...(selection.messageIds?.length ? { messageIds: selection.messageIds } : {}),
  ...(selection.nodeId ? { nodeId: selection.nodeId } : {}),
});

interface QueueCommandInput extends Flags {
  readonly clusterId: string;
  readonly queueName: string;
}

export async function purgeQueue(
  runtime: QueueActionRuntime,
  request: RequestContext,
  input: QueueCommandInput,
): Promise<CommandResult> {
  const ref = await queueRefOf(runtime.db, input.clusterId, input.queueName);
  return runBrokerCommand(runtime, request, {
    clusterId: input.clusterId,
    action: 'queue.purge',
    target: ref.queue,
    parameters: {},
    dryRun: input.dryRun,
    override: input.override,
    capped: true,
    topic: 'queues',
    destinations: ownQueue(ref),
    estimate: (node) => countOn(node, ref),
    apply: async (node) => ({ count: await node.writes.purge(node.client, ref) }),
  });
}

export async function deleteMessages(
  runtime: QueueActionRuntime,
  request: RequestContext,
  input: QueueCommandInput & Selection,
): Promise<CommandResult> {
  checkSelection(input);
  const ref = await queueRefOf(runtime.db, input.clusterId, input.queueName);
  const ids = input.messageIds ?? [];
  return runBrokerCommand(runtime, request, {
    clusterId: input.clusterId,
    action: 'message.delete',
    target: ref.queue,
    parameters: selectionParameters(input),
    dryRun: input.dryRun,
    override: input.override,
    capped: true,
    nodeId: input.nodeId,
    topic: 'queues',
    destinations: ownQueue(ref),
    estimate: (node) => estimateSelection(node, ref, input),
    apply: async (node) => ({
      count:
        ids.length > 0
          ? await node.writes.removeByIds(node.client, ref, ids)
          : await node.writes.removeByFilter(node.client, ref, input.filter ?? ''),
    }),
  });
}

async function requireTargetQueue(db: Database, clusterId: string, source: QueueRef, targetQueue: string) {
  if (targetQueue === source.queue)
    throw selectionProblem('The target queue is the queue the messages are in: choose another one.');
  try {
    return await queueRefOf(db, clusterId, targetQueue);
  } catch {
    throw new ProblemError({
      type: 'validation-failed',
      title: 'No such target queue',
      status: 400,
      detail: `No node of this cluster has a queue named "${targetQueue}" to move the messages to; create it first.`,
    });
  }
}

export async function moveMessages(
  runtime: QueueActionRuntime,
  request: RequestContext,
  input: QueueCommandInput & Selection & { readonly targetQueue: string },
): Promise<CommandResult> {
  checkSelection(input);
  const ref = await queueRefOf(runtime.db, input.clusterId, input.queueName);
  const target = await requireTargetQueue(runtime.db, input.clusterId, ref, input.targetQueue);
  const ids = input.messageIds ?? [];
  return runBrokerCommand(runtime, request, {
    clusterId: input.clusterId,
    action: 'message.move',
    target: ref.queue,
    parameters: { ...selectionParameters(input), targetQueue: target.queue, targetRoutingType: target.routingType },
    dryRun: input.dryRun,
    override: input.override,
    capped: true,
    nodeId: input.nodeId,
    topic: 'queues',
    // The messages land on the target's address: one of the broker's own (a notification subscription's queue on
    // the notification address) is refused like a send there.
    destinations: [...ownQueue(ref), target.queue, target.address],
    estimate: (node) => estimateSelection(node, ref, input),
    apply: async (node) => ({
      count:
        ids.length > 0
          ? await node.writes.moveByIds(node.client, ref, ids, target.queue)
          : await node.writes.moveByFilter(node.client, ref, input.filter ?? '', target.queue),
    }),
  });
}

/**
 * The filter that picks a dead letter's messages of one original address. The broker writes the plain address when
 * delivery fails, and `address::queue` when a message was sent there by management (sendMessagesToDeadLetterAddress).
 */
export function originalAddressFilter(address: string): string {
  const quoted = address.replace(/'/g, "''");
  const pattern = quoted.replace(/[!%_]/g, (character) => `!${character}`);
  return `(_AMQ_ORIG_ADDRESS = '${quoted}' OR _AMQ_ORIG_ADDRESS LIKE '${pattern}::%' ESCAPE '!')`;
}

/**
 * Each message back to its original address (the broker reads it from the message): all of them, the ids given,
 * or those of one original address.
 */
export async function retryMessages(
  runtime: QueueActionRuntime,
  request: RequestContext,
  input: QueueCommandInput & Selection & { readonly originalAddress?: string | undefined },
): Promise<CommandResult> {
  checkSelection(input);
  if (input.filter !== undefined)
    throw selectionProblem('Retry takes message ids or an original address, not a filter.');
  const ref = await queueRefOf(runtime.db, input.clusterId, input.queueName);
  const ids = input.messageIds ?? [];
  const byAddress = input.originalAddress ? originalAddressFilter(input.originalAddress) : undefined;
  return runBrokerCommand(runtime, request, {
    clusterId: input.clusterId,
    action: 'message.retry',
    target: ref.queue,
    parameters: {
      ...selectionParameters(input),
      ...(input.originalAddress ? { originalAddress: input.originalAddress } : {}),
    },
    dryRun: input.dryRun,
    override: input.override,
    capped: true,
    nodeId: input.nodeId,
    topic: 'queues',
    destinations: [...ownQueue(ref), ...(input.originalAddress ? [input.originalAddress] : [])],
    estimate: (node) => (byAddress ? countOn(node, ref, byAddress) : estimateSelection(node, ref, input)),
    // A message naming a reserved original address or queue (forged by a client) stays: `leftOut` says how many.
    apply: async (node) => {
      const { writes, client, reservedAddresses } = node;
      const chosen = ids.length > 0 || !byAddress ? ids : await listMessageIds(client, ref, byAddress);
      const outcome =
        ids.length > 0 || byAddress
          ? await writes.retryByIds(client, ref, chosen, reservedAddresses)
          : await writes.retryAll(client, ref, reservedAddresses);
      return { count: outcome.count, detail: { leftOut: outcome.leftOut } };
    },
  });
}

/**
 * A queue of the broker's own plumbing (on its notification, management or an internal address, or so named) is
 * not Flotilla's to empty, pause, delete or draw messages from: the command sequence refuses it like a destination.
 */
const ownQueue = (ref: QueueRef) => [ref.queue, ref.address];

const presentOn = async (node: CommandNodeView, ref: QueueRef) =>
  (await countOn(node, ref)) === undefined ? undefined : 1;

export async function pauseQueue(
  runtime: QueueActionRuntime,
  request: RequestContext,
  input: QueueCommandInput & { readonly persist: boolean },
): Promise<CommandResult> {
  const ref = await queueRefOf(runtime.db, input.clusterId, input.queueName);
  return runBrokerCommand(runtime, request, {
    clusterId: input.clusterId,
    action: 'queue.pause',
    target: ref.queue,
    parameters: { persist: input.persist },
    dryRun: input.dryRun,
    capped: false,
    topic: 'queues',
    destinations: ownQueue(ref),
    estimate: (node) => presentOn(node, ref),
    apply: async (node) => {
      await node.writes.pause(node.client, ref, input.persist);
      return { count: 1 };
    },
  });
}

export async function resumeQueue(
  runtime: QueueActionRuntime,
  request: RequestContext,
  input: QueueCommandInput,
): Promise<CommandResult> {
  const ref = await queueRefOf(runtime.db, input.clusterId, input.queueName);
  return runBrokerCommand(runtime, request, {
    clusterId: input.clusterId,
    action: 'queue.resume',
    target: ref.queue,
    parameters: {},
    dryRun: input.dryRun,
    capped: false,
    topic: 'queues',
    destinations: ownQueue(ref),
    estimate: (node) => presentOn(node, ref),
    apply: async (node) => {
      await node.writes.resume(node.client, ref);
      return { count: 1 };
    },
  });
}

export interface CreateQueueInput extends Flags {
  readonly clusterId: string;
  readonly name: string;
  readonly address?: string | undefined;
  readonly routingType: 'ANYCAST' | 'MULTICAST';
  readonly filter?: string | undefined;
  readonly durable: boolean;
  readonly maxConsumers?: number | undefined;
}

/** On every logical node; a node that already has the queue refuses, and says so in its outcome. */
export function createQueue(
  runtime: QueueActionRuntime,
  request: RequestContext,
  input: CreateQueueInput,
): Promise<CommandResult> {
  const spec = { ...input, address: input.address || input.name };
  return runBrokerCommand(runtime, request, {
    clusterId: input.clusterId,
    action: 'queue.create',
    target: input.name,
    parameters: {
      address: spec.address,
      routingType: input.routingType,
      durable: input.durable,
      ...(input.filter ? { filter: input.filter } : {}),
      ...(input.maxConsumers !== undefined ? { maxConsumers: input.maxConsumers } : {}),
    },
    dryRun: input.dryRun,
    capped: false,
    topic: 'queues',
    // A queue on the broker's notification address would read its events; on the management address, its requests.
    destinations: [spec.name, spec.address],
    estimate: () => Promise.resolve(1),
    apply: async (node) => {
      await node.writes.createQueue(node.client, spec);
      return { count: 1 };
    },
  });
}

/** Its messages go with it, so the count is capped like a purge. */
export async function deleteQueue(
  runtime: QueueActionRuntime,
  request: RequestContext,
  input: QueueCommandInput,
): Promise<CommandResult> {
  const ref = await queueRefOf(runtime.db, input.clusterId, input.queueName);
  return runBrokerCommand(runtime, request, {
    clusterId: input.clusterId,
    action: 'queue.delete',
    target: ref.queue,
    parameters: { address: ref.address, routingType: ref.routingType },
    dryRun: input.dryRun,
    override: input.override,
    capped: true,
    topic: 'queues',
    destinations: ownQueue(ref),
    estimate: (node) => countOn(node, ref),
    apply: async (node, estimate) => {
      await node.writes.destroyQueue(node.client, ref.queue);
      return { count: estimate };
    },
  });
}
