// Reading the audit log: filters, free text, sort and page, all in the database.
import type { PrismaClient } from '@/base/db/database.ts';
import type { Prisma } from '@/generated/prisma/client.ts';
import { pageOf, parseSort } from '@/modules/kernel/core/index.ts';
import type { AUDIT_SORT_FIELDS, ListAuditInput } from './audit.schema.ts';

export async function listAuditEvents(prisma: PrismaClient, input: ListAuditInput) {
  const where: Prisma.AuditEventWhereInput = {
    actor: input.actor,
    action: input.action,
    clusterId: input.clusterId,
    outcome: input.outcome,
    dryRun: input.dryRun === undefined ? undefined : input.dryRun === 'true',
    startedAt: { gte: input.from ? new Date(input.from) : undefined, lt: input.to ? new Date(input.to) : undefined },
    OR: input.q
      ? (['actor', 'action', 'target', 'clusterName', 'requestId'] as const).map((field) => ({
          [field]: { contains: input.q, mode: 'insensitive' as const },
        }))
      : undefined,
  };
  const { field, direction } = parseSort<(typeof AUDIT_SORT_FIELDS)[number]>(input.sort);
  const [rows, total] = await Promise.all([
    prisma.auditEvent.findMany({
      where,
      omit: { dedupKey: true }, // the denial log's own key (a hash): it does not leave
      orderBy: [{ [field]: direction }, { id: direction }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
    prisma.auditEvent.count({ where }),
  ]);
  const items = rows.map((row) => ({
    ...row,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  }));
  return pageOf(items, total, input.page, input.pageSize);
}
