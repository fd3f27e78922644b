// /api/v1/roles: built-in roles (read-only) and custom roles built from the permission catalogue. Reading needs
// roles:read, changing roles:write.
import { callerPowers, requireHeldByCaller, requireRoleHeldByCaller } from './role-hierarchy.ts';
import { z } from 'zod';
import { moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { restMeta } from './rest-meta.ts';
import {
  createRoleInput,
  deleteRoleInput,
  listRolesInput,
  listRolesOutput,
  roleChangeOutput,
  roleView,
  updateRoleInput,
} from './roles.schema.ts';
import { createRole, deleteRole, getRole, listRoles, updateRole } from './roles.service.ts';

const procedure = moduleProcedure('security');
const read = procedure({ permission: 'roles:read' });
const write = procedure({ permission: 'roles:write' });
const meta = restMeta('roles');

export const rolesRouter = router({
  list: read
    .meta(meta('GET', '/roles', 'List roles (q matches name and description, or one permission exactly)'))
    .input(listRolesInput)
    .output(listRolesOutput)
    .query(({ ctx, input }) => listRoles(ctx.runtime.prisma, input)),

  get: read
    .meta(meta('GET', '/roles/{id}', 'One role'))
    .input(z.object({ id: z.uuid() }))
    .output(roleView)
    .query(({ ctx, input }) => getRole(ctx.runtime.prisma, input.id)),

  create: write
    .meta(meta('POST', '/roles', 'Create a custom role from permissions of the catalogue'))
    .input(createRoleInput)
    .output(roleChangeOutput)
    .mutation(async ({ ctx, input }) => {
      // Unknown permissions are the service's validation error; only real ones can be beyond the caller (a running
      // plugin's too: the catalogue is as it is now).
      const caller = await callerPowers(ctx);
      requireHeldByCaller(caller, input.permissions, 'A role with these permissions');
      return createRole(ctx.runtime.prisma, ctx.request, caller.known, input);
    }),

  update: write
    .meta(meta('PATCH', '/roles/{id}', 'Change a custom role (built-in roles are read-only)'))
    .input(updateRoleInput)
    .output(roleChangeOutput)
    .mutation(async ({ ctx, input }) => {
      const caller = await callerPowers(ctx);
      // Both what the role will hold and what it holds now: no one edits a role above their own.
      await requireRoleHeldByCaller(ctx.runtime.prisma, caller, [input.id], 'Changing this role');
      requireHeldByCaller(caller, input.permissions ?? [], 'A role with these permissions');
      return updateRole(ctx.runtime.prisma, ctx.request, caller.known, input);
    }),

  delete: write
    .meta(meta('DELETE', '/roles/{id}', 'Delete a custom role that no grant uses'))
    .input(deleteRoleInput)
    .output(roleChangeOutput)
    .mutation(({ ctx, input }) => deleteRole(ctx.runtime.prisma, ctx.request, input)),
});
