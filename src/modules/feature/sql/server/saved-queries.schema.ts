// Saved queries: a user's own, and those others shared. A name is unique per owner.
import { z } from 'zod';
import { listQuerySchema, listResultSchema } from '@/modules/kernel/core/index.ts';
import { SQL_MAX_LENGTH } from './sql.schema.ts';

export const savedQueriesInput = listQuerySchema(['name', 'updatedAt'], 'name');

export const savedQueryView = z.object({
  id: z.string(),
  name: z.string(),
  sql: z.string(),
  source: z.enum(['live', 'index', 'tail']),
  shared: z.boolean(),
  ownerName: z.string(),
  mine: z.boolean().describe('The caller saved it (only the owner may change or delete it)'),
  updatedAt: z.string(),
});

export const savedQueriesOutput = listResultSchema(savedQueryView);

export const saveQueryInput = z.object({
  id: z.uuid().optional().describe('Present to change one of your saved queries'),
  name: z.string().trim().min(1).max(120),
  sql: z.string().min(1).max(SQL_MAX_LENGTH),
  source: z.enum(['live', 'index', 'tail']),
  shared: z.boolean().default(false),
  dryRun: z.boolean().default(false),
});

export const removeQueryInput = z.object({ id: z.uuid(), dryRun: z.boolean().default(false) });
