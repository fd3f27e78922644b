// "Where would this message go?" over the cluster's live routing configuration. Read-only: a query (no audit, no
// CSRF token, nothing sent to a broker), served as POST because the question is a body (properties and headers).
import { CLUSTER_NOT_FOUND, moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { liveReadFailed } from '@/modules/platform/clusters/index.ts';
import { whereWouldItGo } from '../../model/where/where.ts';
import { readRoutingViews } from '../live/read-routing.ts';
import { whereInput, whereOutput } from './where.schema.ts';

const procedure = moduleProcedure('routing');

export const whereRouter = router({
  where: procedure({ clusterPermission: 'routing:read' })
    .meta({
      openapi: {
        method: 'POST',
        path: '/clusters/{clusterId}/routing/where',
        tags: ['routing'],
        summary:
          'Where a message would go: per node, the queues that would receive it (filters, routing types, diverts), what cannot be known, and where nodes disagree; read-only',
      },
    })
    .input(whereInput)
    .output(whereOutput)
    .query(async ({ ctx, input }) => {
      const read = await readRoutingViews(ctx.runtime, input.clusterId);
      if (!read) throw new ProblemError(CLUSTER_NOT_FOUND);
      if (read.views.length === 0 && read.failures.length > 0)
        throw await liveReadFailed(ctx.runtime.prisma, input.clusterId, read.failures);
      const message = {
        address: input.address,
        routingType: input.routingType,
        properties: input.properties,
        headers: input.headers,
      };
      return {
        ...whereWouldItGo(read.views, message),
        readAt: read.readAt.toISOString(),
        failures: read.failures,
      };
    }),
});
