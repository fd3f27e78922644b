// The environments API: a grouping of clusters that grants can target. An environment in use cannot be removed.
import { randomUUID } from 'node:crypto';
import { canSeeCluster, moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import { pageOf, parseSort, ProblemError } from '@/modules/kernel/core/index.ts';
import {
  createEnvironmentInput,
  deleteEnvironmentInput,
  environmentSchema,
  listEnvironmentsInput,
  listEnvironmentsOutput,
  updateEnvironmentInput,
} from './clusters.schema.ts';
import { findEnvironment } from './environments.ts';

const procedure = moduleProcedure('clusters');
const tags = ['environments'];

const NOT_FOUND = { type: 'not-found', title: 'Not found', status: 404, detail: 'There is no such environment.' };

function nameTaken(name: string): ProblemError {
  return new ProblemError({
    type: 'environment-name-taken',
    title: 'Environment name taken',
    status: 409,
    detail: `An environment named "${name}" exists.`,
    errors: [{ field: 'name', message: 'is already used by another environment' }],
  });
}

export const environmentsRouter = router({
  list: procedure('authenticated')
    .meta({
      openapi: {
        method: 'GET',
        path: '/environments',
        tags,
        summary: 'Environments you have a grant in (globally, on the environment, or on one of its clusters)',
      },
    })
    .input(listEnvironmentsInput)
    .output(listEnvironmentsOutput)
    .query(async ({ ctx, input }) => {
      const grants = await ctx.grants();
      const global = grants.some((grant) => grant.scope.kind === 'GLOBAL' && grant.permissions.length > 0);
      const rows = await ctx.runtime.prisma.environment.findMany({
        include: { clusters: { select: { id: true, environmentId: true } } },
      });
      const q = input.q?.toLowerCase();
      const visible = rows
        .filter(
          (row) =>
            global ||
            grants.some((grant) => grant.scope.kind === 'ENVIRONMENT' && grant.scope.id === row.id) ||
            row.clusters.some((cluster) =>
              canSeeCluster(grants, { clusterId: cluster.id, environmentId: cluster.environmentId }),
            ),
        )
        .filter((row) => !q || row.name.toLowerCase().includes(q) || row.description.toLowerCase().includes(q))
        .map((row) => ({
          id: row.id,
          name: row.name,
          description: row.description,
          clusterCount: row.clusters.length,
          createdAt: row.createdAt.toISOString(),
        }));
      const { field, direction } = parseSort<'name' | 'createdAt'>(input.sort);
      visible.sort((a, b) => a[field].localeCompare(b[field]) * (direction === 'asc' ? 1 : -1));
      const start = (input.page - 1) * input.pageSize;
      return pageOf(visible.slice(start, start + input.pageSize), visible.length, input.page, input.pageSize);
    }),

  create: procedure({ permission: 'cluster:write' })
    .meta({ openapi: { method: 'POST', path: '/environments', tags, summary: 'Create an environment' } })
    .input(createEnvironmentInput)
    .output(environmentSchema)
    .mutation(async ({ ctx, input }) => {
      const { prisma } = ctx.runtime;
      if (await findEnvironment(prisma, input.name)) throw nameTaken(input.name);
      const row = { id: randomUUID(), name: input.name, description: input.description, createdAt: new Date() };
      await audited(
        prisma,
        ctx.request,
        {
          action: 'environment.create',
          target: input.name,
          parameters: { description: input.description },
          dryRun: input.dryRun,
        },
        async (tx) => {
          if (!input.dryRun) await tx.environment.create({ data: row });
          return { result: undefined };
        },
      );
      return { ...row, clusterCount: 0, createdAt: row.createdAt.toISOString() };
    }),

  update: procedure({ permission: 'cluster:write' })
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/environments/{environmentId}',
        tags,
        summary: 'Rename or describe an environment',
      },
    })
    .input(updateEnvironmentInput)
    .output(environmentSchema)
    .mutation(async ({ ctx, input }) => {
      const { prisma } = ctx.runtime;
      const found = await findEnvironment(prisma, input.environmentId);
      if (!found) throw new ProblemError(NOT_FOUND);
      if (input.name && input.name.toLowerCase() !== found.name.toLowerCase()) {
        if (await findEnvironment(prisma, input.name)) throw nameTaken(input.name);
      }
      const updated = await audited(
        prisma,
        ctx.request,
        {
          action: 'environment.update',
          target: found.name,
          parameters: { name: input.name, description: input.description },
          dryRun: input.dryRun,
        },
        async (tx) => {
          const next = { name: input.name ?? found.name, description: input.description ?? found.description };
          if (!input.dryRun) await tx.environment.update({ where: { id: found.id }, data: next });
          return { result: { ...found, ...next } };
        },
      );
      const clusterCount = await prisma.cluster.count({ where: { environmentId: found.id } });
      return { ...updated, clusterCount, createdAt: updated.createdAt.toISOString() };
    }),

  remove: procedure({ permission: 'cluster:write' })
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/environments/{environmentId}',
        tags,
        summary: 'Remove an environment no cluster uses (409 otherwise)',
      },
    })
    .input(deleteEnvironmentInput)
    .output(environmentSchema)
    .mutation(async ({ ctx, input }) => {
      const { prisma } = ctx.runtime;
      const found = await findEnvironment(prisma, input.environmentId);
      if (!found) throw new ProblemError(NOT_FOUND);
      const clusterCount = await prisma.cluster.count({ where: { environmentId: found.id } });
      if (clusterCount > 0) {
        throw new ProblemError({
          type: 'environment-in-use',
          title: 'Environment in use',
          status: 409,
          detail: `${clusterCount} cluster${clusterCount === 1 ? '' : 's'} belong to "${found.name}"; move or remove them first.`,
          clusterCount,
        });
      }
      await audited(
        prisma,
        ctx.request,
        { action: 'environment.remove', target: found.name, dryRun: input.dryRun },
        async (tx) => {
          if (!input.dryRun) await tx.environment.delete({ where: { id: found.id } });
          return { result: undefined };
        },
      );
      return {
        id: found.id,
        name: found.name,
        description: found.description,
        clusterCount,
        createdAt: found.createdAt.toISOString(),
      };
    }),
});
