import { moduleProcedure, router } from '@/server/trpc/init.ts';
import { listAuditEvents } from './audit-query.ts';
import { listAuditInput, listAuditOutput } from './audit.schema.ts';

const procedure = moduleProcedure('audit');

export const auditRouter = router({
  list: procedure({ permission: 'audit:read' })
    .meta({
      openapi: {
        method: 'GET',
        path: '/audit',
        tags: ['audit'],
        summary: 'Search the audit log (filters by actor, action, cluster, outcome and time)',
      },
    })
    .input(listAuditInput)
    .output(listAuditOutput)
    .query(({ ctx, input }) => listAuditEvents(ctx.runtime.prisma, input)),
});
