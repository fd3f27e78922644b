import { z } from 'zod';
import { listQuerySchema, listResultSchema } from '@/modules/kernel/core/index.ts';
import { newPasswordSchema } from '../password-policy.ts';

export const USER_SORT_FIELDS = [
  'username',
  'displayName',
  'email',
  'providerId',
  'createdAt',
  'lastSignInAt',
] as const;

const dryRun = z.boolean().default(false).describe('Say what would happen and change nothing');
const displayName = z.string().trim().max(200);
const email = z.email().max(320);

export const listUsersInput = listQuerySchema(USER_SORT_FIELDS, 'username');

export const userView = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string().nullable(),
  email: z.string().nullable(),
  /** `local`, or the identity provider that signs this user in. */
  providerId: z.string(),
  external: z.boolean(),
  disabled: z.boolean(),
  mustChangePassword: z.boolean(),
  grantCount: z.number().int(),
  /** The installation's only administrator: deleting or disabling them is refused (409 last-admin). */
  soleAdministrator: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastSignInAt: z.string().nullable(),
});

export const listUsersOutput = listResultSchema(userView);

export const createUserInput = z.object({
  username: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[\p{L}\p{N}._@-]+$/u, 'may hold letters, digits and . _ @ - only'),
  displayName: displayName.optional(),
  email: email.optional(),
  password: newPasswordSchema,
  mustChangePassword: z.boolean().default(true).describe('Ask for a new password at the first sign-in'),
  dryRun,
});

export const updateUserInput = z.object({
  id: z.uuid(),
  displayName: displayName.nullable().optional().describe('null clears it'),
  email: email.nullable().optional().describe('null clears it'),
  disabled: z.boolean().optional().describe('A disabled user cannot sign in; their sessions end at once'),
  password: newPasswordSchema
    .optional()
    .describe('Resets the password (local accounts only): the user must change it at the next sign-in'),
  dryRun,
});

export const deleteUserInput = z.object({ id: z.uuid(), dryRun });

export const userChangeOutput = z.object({ user: userView, dryRun: z.boolean(), sessionsEnded: z.number().int() });

export type UserView = z.infer<typeof userView>;
export type ListUsersInput = z.infer<typeof listUsersInput>;
export type CreateUserInput = z.infer<typeof createUserInput>;
export type UpdateUserInput = z.infer<typeof updateUserInput>;
