// /api/v1/users: the installation's users, local and external. Reading needs users:read, changing users:write.
import { callerPowers, requireUserHeldByCaller } from './role-hierarchy.ts';
import { z } from 'zod';
import { moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { restMeta } from './rest-meta.ts';
import {
  createUserInput,
  deleteUserInput,
  listUsersInput,
  listUsersOutput,
  updateUserInput,
  userChangeOutput,
  userView,
} from './users.schema.ts';
import { createUser, deleteUser, getUser, listUsers, updateUser } from './users.service.ts';

const procedure = moduleProcedure('security');
const read = procedure({ permission: 'users:read' });
const write = procedure({ permission: 'users:write' });
const meta = restMeta('users');

export const usersRouter = router({
  list: read
    .meta(meta('GET', '/users', 'List users (q matches username, display name and email)'))
    .input(listUsersInput)
    .output(listUsersOutput)
    .query(({ ctx, input }) => listUsers(ctx.runtime.prisma, input)),

  get: read
    .meta(meta('GET', '/users/{id}', 'One user'))
    .input(z.object({ id: z.uuid() }))
    .output(userView)
    .query(({ ctx, input }) => getUser(ctx.runtime.prisma, input.id)),

  create: write
    .meta(meta('POST', '/users', 'Create a local user; by default they must change the password at first sign-in'))
    .input(createUserInput)
    .output(userChangeOutput)
    .mutation(({ ctx, input }) => createUser(ctx.runtime.prisma, ctx.request, input)),

  update: write
    .meta(meta('PATCH', '/users/{id}', 'Change a user: display name, email, disabled, or reset the password'))
    .input(updateUserInput)
    .output(userChangeOutput)
    .mutation(async ({ ctx, input }) => {
      await requireUserHeldByCaller(ctx.runtime.prisma, await callerPowers(ctx), input.id, 'Changing this user');
      return updateUser(ctx.runtime.prisma, ctx.request, input);
    }),

  delete: write
    .meta(meta('DELETE', '/users/{id}', 'Delete a user with their grants, sessions and API tokens'))
    .input(deleteUserInput)
    .output(userChangeOutput)
    .mutation(async ({ ctx, input }) => {
      await requireUserHeldByCaller(ctx.runtime.prisma, await callerPowers(ctx), input.id, 'Deleting this user');
      return deleteUser(ctx.runtime.prisma, ctx.request, input);
    }),
});
