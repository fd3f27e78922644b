import { z } from 'zod';
import { listQuerySchema, listResultSchema } from '@/modules/kernel/core/index.ts';

export const SCOPE_KINDS = ['GLOBAL', 'ENVIRONMENT', 'CLUSTER'] as const;
export const GRANT_SORT_FIELDS = ['createdAt', 'username', 'roleName', 'scopeKind'] as const;

const dryRun = z.boolean().default(false).describe('Say what would happen and change nothing');

export const listGrantsInput = listQuerySchema(GRANT_SORT_FIELDS, '-createdAt').extend({
  userId: z.uuid().optional(),
  roleId: z.uuid().optional(),
  scopeKind: z.enum(SCOPE_KINDS).optional(),
});

const scopeSchema = z
  .object({
    kind: z.enum(SCOPE_KINDS),
    id: z.uuid('must be a UUID').optional().describe('The environment or cluster; left out for GLOBAL'),
  })
  .superRefine((scope, context) => {
    if (scope.kind === 'GLOBAL' && scope.id !== undefined)
      context.addIssue({ code: 'custom', path: ['id'], message: 'must be left out for a global grant' });
    if (scope.kind !== 'GLOBAL' && scope.id === undefined)
      context.addIssue({ code: 'custom', path: ['id'], message: `is needed for an ${scope.kind.toLowerCase()} grant` });
  });

export const grantView = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  userDisplayName: z.string().nullable(),
  roleId: z.string(),
  roleName: z.string(),
  scope: z.object({ kind: z.enum(SCOPE_KINDS), id: z.string().nullable() }),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
});

export const listGrantsOutput = listResultSchema(grantView);

export const createGrantInput = z.object({ userId: z.uuid(), roleId: z.uuid(), scope: scopeSchema, dryRun });

export const deleteGrantInput = z.object({ id: z.uuid(), dryRun });

export const grantChangeOutput = z.object({ grant: grantView, dryRun: z.boolean() });

export type GrantView = z.infer<typeof grantView>;
export type ListGrantsInput = z.infer<typeof listGrantsInput>;
export type CreateGrantInput = z.infer<typeof createGrantInput>;
