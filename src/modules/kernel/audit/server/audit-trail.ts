// One thing's trail in the audit log, for a module that shows the history of what it owns (a setting's changes):
// the rows that changed it (succeeded, not dry runs), newest first, a page at a time.
import type { PrismaClient } from '@/base/db/database.ts';

export interface AuditTrailEntry {
  readonly id: string;
  readonly at: Date;
  readonly actor: string;
  readonly action: string;
  readonly target: string | null;
  readonly parameters: unknown;
}

/** Rows whose action is one of `actions` and whose target is `target`, for any of the given pairs. */
export async function auditTrail(
  prisma: PrismaClient,
  of: readonly { readonly actions: readonly string[]; readonly target: string }[],
  page: { readonly page: number; readonly pageSize: number },
): Promise<{ entries: AuditTrailEntry[]; total: number }> {
  const where = {
    outcome: 'SUCCEEDED',
    dryRun: false,
    OR: of.map(({ actions, target }) => ({ action: { in: [...actions] }, target })),
  };
  const [rows, total] = await Promise.all([
    prisma.auditEvent.findMany({
      where,
      select: { id: true, startedAt: true, actor: true, action: true, target: true, parameters: true },
      orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
      skip: (page.page - 1) * page.pageSize,
      take: page.pageSize,
    }),
    prisma.auditEvent.count({ where }),
  ]);
  const entries = rows.map(({ startedAt, ...row }) => ({ ...row, at: startedAt }));
  return { entries, total };
}
