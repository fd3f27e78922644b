import { z } from 'zod';
import { listQuerySchema, listResultSchema } from '@/modules/kernel/core/index.ts';

export const ROLE_SORT_FIELDS = ['name', 'createdAt', 'updatedAt'] as const;

const dryRun = z.boolean().default(false).describe('Say what would happen and change nothing');
const name = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._-]*$/u, 'may hold letters, digits, spaces and . _ - only');
const description = z.string().trim().max(500);
const permissions = z
  .array(z.string().trim().min(1).max(100))
  .max(500)
  .describe('Permission ids from the catalogue (GET /api/v1/manifest)');

export const listRolesInput = listQuerySchema(ROLE_SORT_FIELDS, 'name');

export const roleView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** viewer, operator, admin and installer: derived from the catalogue, read-only. */
  builtIn: z.boolean(),
  permissions: z.array(z.string()),
  grantCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const listRolesOutput = listResultSchema(roleView);

export const createRoleInput = z.object({ name, description: description.default(''), permissions, dryRun });

export const updateRoleInput = z.object({
  id: z.uuid(),
  name: name.optional(),
  description: description.optional(),
  permissions: permissions.optional(),
  dryRun,
});

export const deleteRoleInput = z.object({ id: z.uuid(), dryRun });

export const roleChangeOutput = z.object({ role: roleView, dryRun: z.boolean() });

export type RoleView = z.infer<typeof roleView>;
export type ListRolesInput = z.infer<typeof listRolesInput>;
export type CreateRoleInput = z.infer<typeof createRoleInput>;
export type UpdateRoleInput = z.infer<typeof updateRoleInput>;
