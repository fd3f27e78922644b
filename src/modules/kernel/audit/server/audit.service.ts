// The audit service: every mutation opens its `audit_event` row inside the caller's transaction before the work
// and completes it after. A failed command rolls its transaction back, so its row is then written afresh.
import { randomUUID } from 'node:crypto';
import type { PrismaClient, Transaction } from '@/server/db/database.ts';
import type { RequestContext } from '../../core/request-context.ts';

export type AuditOutcome = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'PARTIAL' | 'REFUSED';

export interface AuditEntry {
  readonly action: string;
  readonly target?: string;
  readonly parameters?: Record<string, unknown>;
  readonly dryRun?: boolean;
  readonly cluster?: { readonly id: string; readonly name: string };
}

export interface AuditCompletion {
  readonly outcome: Exclude<AuditOutcome, 'PENDING'>;
  readonly nodeDetail?: unknown;
  readonly error?: string;
}

function rowFor(id: string, request: RequestContext, entry: AuditEntry, startedAt: Date) {
  return {
    id,
    actor: request.actor.name,
    userId: request.actor.userId,
    sourceIp: request.sourceIp,
    requestId: request.requestId,
    action: entry.action,
    target: entry.target ?? null,
    parameters: (entry.parameters ?? {}) as object,
    dryRun: entry.dryRun ?? false,
    clusterId: entry.cluster?.id ?? null,
    clusterName: entry.cluster?.name ?? null,
    startedAt,
  };
}

export async function beginAudit(tx: Transaction, request: RequestContext, entry: AuditEntry): Promise<string> {
  const id = randomUUID();
  await tx.auditEvent.create({ data: { ...rowFor(id, request, entry, new Date()), outcome: 'PENDING' } });
  return id;
}

export async function finishAudit(tx: Transaction, id: string, completion: AuditCompletion): Promise<void> {
  await tx.auditEvent.update({
    where: { id },
    data: {
      outcome: completion.outcome,
      nodeDetail: completion.nodeDetail === undefined ? undefined : (completion.nodeDetail as object),
      error: completion.error ?? null,
      finishedAt: new Date(),
    },
  });
}

/** Writes a finished row in one step, for events with no work of their own (a sign-in attempt). */
export async function recordAuditEvent(
  prisma: PrismaClient,
  request: RequestContext,
  entry: AuditEntry,
  completion: AuditCompletion,
): Promise<void> {
  await prisma.auditEvent.create({
    data: {
      ...rowFor(randomUUID(), request, entry, new Date()),
      outcome: completion.outcome,
      nodeDetail: completion.nodeDetail === undefined ? undefined : (completion.nodeDetail as object),
      error: completion.error ?? null,
      finishedAt: new Date(),
    },
  });
}

/**
 * Runs `work` in one transaction with its audit row: opened first, finished with the work's outcome.
 * If the work throws, the transaction rolls back and a FAILED row with the error is committed instead.
 */
export async function audited<Result>(
  prisma: PrismaClient,
  request: RequestContext,
  entry: AuditEntry,
  work: (tx: Transaction) => Promise<{ result: Result; completion?: Partial<AuditCompletion> }>,
): Promise<Result> {
  const startedAt = new Date();
  let auditId: string | undefined;
  try {
    return await prisma.$transaction(async (tx) => {
      auditId = await beginAudit(tx, request, entry);
      const { result, completion } = await work(tx);
      await finishAudit(tx, auditId, { outcome: 'SUCCEEDED', ...completion });
      return result;
    });
  } catch (error) {
    // The caller must see the work's own error, even when the database refuses the FAILED row too.
    await prisma.auditEvent
      .create({
        data: {
          ...rowFor(auditId ?? randomUUID(), request, entry, startedAt),
          outcome: 'FAILED',
          error: error instanceof Error ? error.message : String(error),
          finishedAt: new Date(),
        },
      })
      .catch((auditError: unknown) =>
        console.error(`[audit] cannot record the failure of ${entry.action}:`, auditError),
      );
    throw error;
  }
}
