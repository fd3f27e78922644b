// The messages API under /api/v1/clusters/{clusterId}/messages: browse one node's copy of a queue, and send.
// Everything that leaves goes through the content policy; seeing values in clear needs message:clear and is
// audited as VIEW_CLEAR.
import { guardCluster, moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { auditClearView, requireClearAccess } from '@/modules/platform/governance/index.ts';
import { queueRefOf } from '@/modules/feature/queues/index.ts';
import { browseMessages } from './browse-messages.ts';
import { sendOne } from './send-message.ts';
import { browseInput, browseOutput, sendInput, sendOutput } from './messages.schema.ts';

const procedure = moduleProcedure('messages');
const tags = ['messages'];

async function requireClear(guard: Omit<Parameters<typeof guardCluster>[0], 'clusterId'>, clusterId: string) {
  requireClearAccess((await guardCluster({ ...guard, clusterId })).permissions);
}

export const messagesRouter = router({
  browse: procedure({ clusterPermission: 'message:browse' })
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/messages',
        tags,
        summary:
          'A page of one node’s copy of a queue, native while the subscription is live, through the content policy',
      },
    })
    .input(browseInput)
    .output(browseOutput)
    .query(async ({ ctx, input }) => {
      const clear = input.clear === 'true';
      if (clear) await requireClear({ ...ctx.runtime, grants: ctx.grants }, input.clusterId);
      const ref = await queueRefOf(ctx.runtime.db, input.clusterId, input.queue);
      const { governed, ...answer } = await browseMessages(ctx.runtime, { ...input, ref, clear });
      if (clear)
        await auditClearView(ctx.runtime.prisma, ctx.request, { target: `messages of ${ref.queue}`, governed });
      return answer;
    }),

  send: procedure({ clusterPermission: 'message:send' })
    .meta({
      openapi: {
        method: 'POST',
        path: '/clusters/{clusterId}/messages/send',
        tags,
        summary: 'Send one message with typed properties to an address or a queue (audited; dryRun validates only)',
      },
    })
    .input(sendInput)
    .output(sendOutput)
    .mutation(async ({ ctx, input }) => {
      if (input.clear) await requireClear({ ...ctx.runtime, grants: ctx.grants }, input.clusterId);
      const { result, echo, governed } = await sendOne(ctx.runtime, ctx.request, input);
      if (input.clear)
        await auditClearView(ctx.runtime.prisma, ctx.request, { target: `message sent to ${input.address}`, governed });
      return { result, echo };
    }),
});
