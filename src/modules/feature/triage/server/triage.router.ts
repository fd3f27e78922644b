// The triage API: GET /api/v1/fleet (every visible cluster at a glance), GET /api/v1/triage (the worst queues across
// the clusters whose metrics the caller may read) and GET /api/v1/queues?q= (a queue search across the clusters whose
// queues the caller may read). Clusters the caller may not see are simply absent: no error tells them apart.
import { moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { pageOf, ProblemError } from '@/modules/kernel/core/index.ts';
import { isVerdict, VERDICTS, type Verdict } from '@/base/consumer-verdicts.ts';
import { worstQueuesOf } from '@/modules/feature/metrics/index.ts';
import { visibleClusters } from '@/modules/platform/clusters/index.ts';
import { searchFleetQueues } from '@/modules/platform/scrape/read/index.ts';
import { readFleet } from './fleet.ts';
import {
  fleetInput,
  fleetOutput,
  searchQueuesInput,
  searchQueuesOutput,
  triageInput,
  triageOutput,
} from './triage.schema.ts';

const procedure = moduleProcedure('triage');
const tags = ['triage'];

function verdictsOf(text: string | undefined): Verdict[] | undefined {
  const named = (text ?? '').split(',').filter(Boolean);
  if (named.length === 0) return undefined;
  const unknown = named.filter((name) => !isVerdict(name));
  if (unknown.length > 0) {
    throw new ProblemError({
      type: 'validation-failed',
      title: 'Unknown verdict',
      status: 400,
      detail: `Unknown verdict ${unknown.join(', ')}; one of ${VERDICTS.join(', ')}.`,
    });
  }
  return named as Verdict[];
}

export const triageRouter = router({
  fleet: procedure('authenticated')
    .meta({
      openapi: {
        method: 'GET',
        path: '/fleet',
        tags,
        summary:
          'Every cluster you can see: health, nodes, HA, capability problems, backlog, DLQ depth, worst verdicts',
      },
    })
    .input(fleetInput)
    .output(fleetOutput)
    .query(async ({ ctx, input }) => readFleet(ctx.runtime, await ctx.grants(), input.q, input.sort)),

  worst: procedure('authenticated')
    .meta({
      openapi: {
        method: 'GET',
        path: '/triage',
        tags,
        summary: 'The worst queues across your clusters, by consumer-health verdict and backlog growth',
      },
    })
    .input(triageInput)
    .output(triageOutput)
    .query(async ({ ctx, input }) => {
      const verdicts = verdictsOf(input.verdict);
      const clusters = await visibleClusters(ctx.runtime.prisma, await ctx.grants(), 'metric:read');
      const names = new Map(clusters.map((cluster) => [cluster.id, cluster.name]));
      const { items, total } = await worstQueuesOf(ctx.runtime.db, [...names.keys()], {
        ...(verdicts ? { verdicts } : {}),
        sort: input.sort,
        page: input.page,
        pageSize: input.pageSize,
      });
      const rows = items.map((item) => ({ ...item, clusterName: names.get(item.clusterId) ?? item.clusterId }));
      return pageOf(rows, total, input.page, input.pageSize);
    }),

  searchQueues: procedure('authenticated')
    .meta({
      openapi: {
        method: 'GET',
        path: '/queues',
        tags,
        summary: 'Queues of every cluster you can read whose name or address contains q',
      },
    })
    .input(searchQueuesInput)
    .output(searchQueuesOutput)
    .query(async ({ ctx, input }) => {
      const clusters = await visibleClusters(ctx.runtime.prisma, await ctx.grants(), 'queue:read');
      const names = new Map(clusters.map((cluster) => [cluster.id, cluster.name]));
      const { items, total } = await searchFleetQueues(ctx.runtime.db, [...names.keys()], input.q, {
        sort: input.sort,
        page: input.page,
        pageSize: input.pageSize,
      });
      const rows = items.map((item) => ({ ...item, clusterName: names.get(item.clusterId) ?? item.clusterId }));
      return pageOf(rows, total, input.page, input.pageSize);
    }),
});
