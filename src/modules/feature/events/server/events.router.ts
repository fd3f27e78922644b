// The events API: GET /api/v1/clusters/{clusterId}/events, the stored notifications of one cluster with q, kind,
// address/queue and time filters, sort and paging, plus the dropped counter and the oldest event still kept.
import { guardCluster, moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { auditClearView, requireClearAccess } from '@/modules/platform/governance/index.ts';
import { governEvents } from './governed-events.ts';
import { listEvents } from './events-read.ts';
import { listEventsInput, listEventsOutput } from './events.schema.ts';

const procedure = moduleProcedure('events');

export const eventsRouter = router({
  list: procedure({ clusterPermission: 'event:read' })
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/events',
        tags: ['events'],
        summary: 'Broker notifications of the cluster, newest first, with the dropped counter and retention edge',
      },
    })
    .input(listEventsInput)
    .output(listEventsOutput)
    .query(async ({ ctx, input }) => {
      const clusterId = input.clusterId.toLowerCase();
      const clear = input.clear === 'true';
      if (clear)
        requireClearAccess((await guardCluster({ ...ctx.runtime, grants: ctx.grants, clusterId })).permissions);
      const page = await listEvents(ctx.runtime.db.pool, { ...input, clusterId });
      const governed = await governEvents(ctx.runtime, page.items, { clear });
      if (clear) {
        await auditClearView(ctx.runtime.prisma, ctx.request, {
          target: `events of cluster ${clusterId}`,
          governed: governed.governed,
        });
      }
      return { ...page, items: governed.events, policyVersion: governed.policyVersion };
    }),
});
