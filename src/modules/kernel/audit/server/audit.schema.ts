import { z } from 'zod';
import { listQuerySchema, listResultSchema } from '@/modules/kernel/core/index.ts';

export const AUDIT_SORT_FIELDS = ['startedAt', 'actor', 'action', 'outcome', 'clusterName'] as const;

export const listAuditInput = listQuerySchema(AUDIT_SORT_FIELDS, '-startedAt').extend({
  actor: z.string().max(200).optional().describe('Exact actor name'),
  action: z.string().max(200).optional().describe('Exact action, e.g. setting.update'),
  clusterId: z.uuid().optional(),
  outcome: z
    .enum(['PENDING', 'SUCCEEDED', 'FAILED', 'PARTIAL', 'REFUSED', 'DENIED', 'INTERRUPTED'])
    .optional()
    .describe(
      'DENIED: calls refused by an access check, one row per principal, route, reason and window; INTERRUPTED: the ' +
        'process running it ended before it finished',
    ),
  dryRun: z.enum(['true', 'false']).optional().describe('Only dry runs, or only real runs'),
  from: z.iso.datetime({ offset: true }).optional().describe('Started at or after (ISO 8601)'),
  to: z.iso.datetime({ offset: true }).optional().describe('Started before (ISO 8601)'),
});

const auditEventSchema = z.object({
  id: z.string(),
  actor: z.string(),
  userId: z.string().nullable(),
  sourceIp: z.string().nullable(),
  requestId: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  parameters: z.unknown(),
  dryRun: z.boolean(),
  clusterId: z.string().nullable(),
  clusterName: z.string().nullable(),
  outcome: z.string(),
  nodeDetail: z.unknown(),
  error: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** How many refusals a DENIED row stands for (from startedAt to finishedAt); 1 for every other row. */
  count: z.number().int(),
});

export const listAuditOutput = listResultSchema(auditEventSchema);
export type ListAuditInput = z.infer<typeof listAuditInput>;
