import { moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { pageOf, parseSort } from '@/modules/kernel/core/index.ts';
import { readJobViews } from './jobs-query.ts';
import { listJobsInput, listJobsOutput } from './jobs.schema.ts';

const procedure = moduleProcedure('jobs');

export const jobsRouter = router({
  list: procedure({ permission: 'jobs:read' })
    .meta({
      openapi: {
        method: 'GET',
        path: '/system/jobs',
        tags: ['jobs'],
        summary: "Each scheduled job's last run, next run and status (DEGRADED after three missed intervals)",
      },
    })
    .input(listJobsInput)
    .output(listJobsOutput)
    .query(async ({ ctx, input }) => {
      const needle = input.q?.toLowerCase();
      const views = (await readJobViews(ctx.runtime.prisma, ctx.runtime.registry, ctx.runtime.instanceId)).filter(
        (view) => !needle || `${view.id} ${view.module} ${view.description}`.toLowerCase().includes(needle),
      );
      const { field, direction } = parseSort<'id' | 'module' | 'status' | 'lastFinishedAt'>(input.sort);
      const sign = direction === 'asc' ? 1 : -1;
      views.sort((a, b) => sign * (a[field] ?? '').localeCompare(b[field] ?? '') || a.id.localeCompare(b.id));
      const start = (input.page - 1) * input.pageSize;
      return pageOf(views.slice(start, start + input.pageSize), views.length, input.page, input.pageSize);
    }),
});
