// The queue operations under /api/v1/clusters/{clusterId}/queues: purge, delete, move and retry messages, pause
// and resume, create and delete queues. Thin: each is one broker command (queue-actions.ts).
import { moduleProcedure } from '@/modules/kernel/access/index.ts';
import {
  createQueue,
  deleteMessages,
  deleteQueue,
  moveMessages,
  pauseQueue,
  purgeQueue,
  resumeQueue,
  retryMessages,
} from './queue-actions.ts';
import { commandResultSchema } from '@/modules/platform/commands/index.ts';
import {
  createQueueInput,
  deleteMessagesInput,
  deleteQueueInput,
  moveMessagesInput,
  pauseInput,
  purgeInput,
  resumeInput,
  retryMessagesInput,
} from './queue-actions.schema.ts';

const procedure = moduleProcedure('queues');
const messageWrite = { clusterPermission: 'message:write' } as const;
const queueWrite = { clusterPermission: 'queue:write' } as const;
const tags = ['queues'];
const post = (path: `/${string}`, summary: string) => ({ openapi: { method: 'POST' as const, path, tags, summary } });
const QUEUE = '/clusters/{clusterId}/queues/{queueName}';

export const queueActionProcedures = {
  purge: procedure(messageWrite)
    .meta(post(`${QUEUE}/purge`, 'Remove every message of the queue on every node (capped; dry run first)'))
    .input(purgeInput)
    .output(commandResultSchema)
    .mutation(({ ctx, input }) => purgeQueue(ctx.runtime, ctx.request, input)),

  deleteMessages: procedure(messageWrite)
    .meta(post(`${QUEUE}/messages/delete`, 'Remove the messages matching a filter, or by id on one node'))
    .input(deleteMessagesInput)
    .output(commandResultSchema)
    .mutation(({ ctx, input }) => deleteMessages(ctx.runtime, ctx.request, input)),

  moveMessages: procedure(messageWrite)
    .meta(post(`${QUEUE}/messages/move`, 'Move the messages matching a filter, or by id on one node, to another queue'))
    .input(moveMessagesInput)
    .output(commandResultSchema)
    .mutation(({ ctx, input }) => moveMessages(ctx.runtime, ctx.request, input)),

  retryMessages: procedure(messageWrite)
    .meta(
      post(
        `${QUEUE}/messages/retry`,
        'Send dead letters back to their original address (all, by id, or of one address)',
      ),
    )
    .input(retryMessagesInput)
    .output(commandResultSchema)
    .mutation(({ ctx, input }) => retryMessages(ctx.runtime, ctx.request, input)),

  pause: procedure(queueWrite)
    .meta(post(`${QUEUE}/pause`, 'Stop delivery from the queue on every node (optionally across restarts)'))
    .input(pauseInput)
    .output(commandResultSchema)
    .mutation(({ ctx, input }) => pauseQueue(ctx.runtime, ctx.request, input)),

  resume: procedure(queueWrite)
    .meta(post(`${QUEUE}/resume`, 'Resume delivery from the queue on every node'))
    .input(resumeInput)
    .output(commandResultSchema)
    .mutation(({ ctx, input }) => resumeQueue(ctx.runtime, ctx.request, input)),

  create: procedure(queueWrite)
    .meta(post('/clusters/{clusterId}/queues', 'Create a queue (and its address) on every node'))
    .input(createQueueInput)
    .output(commandResultSchema)
    .mutation(({ ctx, input }) => createQueue(ctx.runtime, ctx.request, input)),

  remove: procedure(queueWrite)
    .meta({
      openapi: {
        method: 'DELETE',
        path: QUEUE,
        tags,
        summary: 'Delete the queue and its messages on every node (capped)',
      },
    })
    .input(deleteQueueInput)
    .output(commandResultSchema)
    .mutation(({ ctx, input }) => deleteQueue(ctx.runtime, ctx.request, input)),
};
