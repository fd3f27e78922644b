// /api/v1/grants: roles given to users at a scope (GLOBAL, one ENVIRONMENT, one CLUSTER). Reading needs
// roles:read, changing roles:write (the catalogue's "roles and grants").
import { callerPowers, requireRoleHeldByCaller, requireUserHeldByCaller } from './role-hierarchy.ts';
import { z } from 'zod';
import { moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { restMeta } from './rest-meta.ts';
import {
  createGrantInput,
  deleteGrantInput,
  grantChangeOutput,
  grantView,
  listGrantsInput,
  listGrantsOutput,
} from './grants.schema.ts';
import { createGrant, deleteGrant, getGrant, listGrants } from './grants.service.ts';

const procedure = moduleProcedure('security');
const read = procedure({ permission: 'roles:read' });
const write = procedure({ permission: 'roles:write' });
const meta = restMeta('grants');

export const grantsRouter = router({
  list: read
    .meta(meta('GET', '/grants', 'List users’ grants (filters userId, roleId, scopeKind; q matches user, role, scope)'))
    .input(listGrantsInput)
    .output(listGrantsOutput)
    .query(({ ctx, input }) => listGrants(ctx.runtime.prisma, input)),

  get: read
    .meta(meta('GET', '/grants/{id}', 'One grant'))
    .input(z.object({ id: z.uuid() }))
    .output(grantView)
    .query(({ ctx, input }) => getGrant(ctx.runtime.prisma, input.id)),

  create: write
    .meta(meta('POST', '/grants', 'Give a user a role, everywhere or in one environment or cluster'))
    .input(createGrantInput)
    .output(grantChangeOutput)
    .mutation(async ({ ctx, input }) => {
      await requireRoleHeldByCaller(ctx.runtime.prisma, await callerPowers(ctx), [input.roleId], 'Granting this role');
      return createGrant(ctx.runtime.prisma, ctx.runtime.registry, ctx.request, input);
    }),

  delete: write
    .meta(meta('DELETE', '/grants/{id}', 'Remove a grant'))
    .input(deleteGrantInput)
    .output(grantChangeOutput)
    .mutation(async ({ ctx, input }) => {
      const grant = await ctx.runtime.prisma.grant.findUnique({ where: { id: input.id } });
      if (grant?.userId) {
        await requireUserHeldByCaller(
          ctx.runtime.prisma,
          await callerPowers(ctx),
          grant.userId,
          'Changing the grants of this user',
        );
      }
      return deleteGrant(ctx.runtime.prisma, ctx.request, input);
    }),
});
