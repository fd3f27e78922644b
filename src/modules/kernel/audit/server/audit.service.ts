// The audit service: every mutation opens its `audit_event` row inside the caller's transaction before the work
// and completes it after. A failed command rolls its transaction back, so its row is then written afresh.
import { randomUUID } from 'node:crypto';
import type { PrismaClient, Transaction } from '@/base/db/database.ts';
import type { RequestContext } from '@/modules/kernel/core/index.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('audit');

// INTERRUPTED is written by the interrupted sweep only (interrupted-sweep.ts), never by a caller's `finish`.
type AuditOutcome = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'PARTIAL' | 'REFUSED';

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

type ParameterMasker = (parameters: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** How each database's rows keep their parameters: set by the runtime that owns it (audit.parameter-view). */
const maskers = new WeakMap<PrismaClient, ParameterMasker>();

/** The boot id of the process that owns each database's PENDING rows: set by the runtime that owns it (ADR 35). */
const owners = new WeakMap<PrismaClient, string>();

/** Rows this process opens name `bootId`, whose 'audit.owner' lock the process holds while it lives. */
export function ownAuditRowsAs(prisma: PrismaClient, bootId: string): void {
  owners.set(prisma, bootId);
}

/**
 * Parameters are stored as the content policy shows them (a caller may type a card number into anything), so the
 * row never holds what no screen may show. The runtime that owns `prisma` registers the policy's view here.
 */
export function storeParametersThrough(prisma: PrismaClient, masker: ParameterMasker): void {
  maskers.set(prisma, masker);
}

async function withStoredParameters(prisma: PrismaClient, entry: AuditEntry): Promise<AuditEntry> {
  const masker = maskers.get(prisma);
  if (!masker) return entry;
  // The target too: it may be what a caller typed (the username of a failed sign-in, found by the fuzzing, issue 34).
  const target = typeof entry.target === 'string' ? (await masker({ target: entry.target })).target : entry.target;
  const masked = { ...entry, target: typeof target === 'string' ? target : entry.target };
  if (!entry.parameters || Object.keys(entry.parameters).length === 0) return masked;
  return { ...masked, parameters: await masker({ ...entry.parameters }) };
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

async function beginAudit(
  tx: Transaction,
  request: RequestContext,
  entry: AuditEntry,
  owner: string | undefined,
): Promise<string> {
  const id = randomUUID();
  await tx.auditEvent.create({
    data: { ...rowFor(id, request, entry, new Date()), outcome: 'PENDING', owner: owner ?? null },
  });
  return id;
}

async function finishAudit(tx: Transaction, id: string, completion: AuditCompletion): Promise<void> {
  // Not only while PENDING: a row swept INTERRUPTED while its process lived (its lock connection broke) gets the
  // outcome the work really had.
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
  const stored = await withStoredParameters(prisma, entry);
  await prisma.auditEvent.create({
    data: {
      ...rowFor(randomUUID(), request, stored, new Date()),
      outcome: completion.outcome,
      nodeDetail: completion.nodeDetail === undefined ? undefined : (completion.nodeDetail as object),
      error: completion.error ?? null,
      finishedAt: new Date(),
    },
  });
}

/** An audit row already committed as PENDING: the work outside any transaction, then `finish` once. */
export interface OpenAudit {
  readonly id: string;
  /** Progress of long work: the node detail so far, on the row while it is still PENDING. */
  progress(nodeDetail: unknown): Promise<void>;
  finish(completion: AuditCompletion): Promise<void>;
}

/**
 * For work that calls out (a broker write): the PENDING row is committed before anything else, so no transaction
 * is held across network calls and, when the row cannot be written, this throws and the work never starts.
 */
export async function openAudit(prisma: PrismaClient, request: RequestContext, entry: AuditEntry): Promise<OpenAudit> {
  const stored = await withStoredParameters(prisma, entry);
  const id = await prisma.$transaction((tx) => beginAudit(tx, request, stored, owners.get(prisma)));
  return {
    id,
    progress: async (nodeDetail) => {
      await prisma.auditEvent.updateMany({
        where: { id, outcome: 'PENDING' },
        data: { nodeDetail: nodeDetail as object },
      });
    },
    finish: (completion) => prisma.$transaction((tx) => finishAudit(tx, id, completion)),
  };
}

/** Errors that `audited` already wrote a FAILED row for: the denial log leaves them out (no second row). */
const auditedErrors = new WeakSet<object>();

export function wasAudited(error: unknown): boolean {
  return typeof error === 'object' && error !== null && auditedErrors.has(error);
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
  const stored = await withStoredParameters(prisma, entry);
  let auditId: string | undefined;
  try {
    return await prisma.$transaction(async (tx) => {
      auditId = await beginAudit(tx, request, stored, owners.get(prisma));
      const { result, completion } = await work(tx);
      await finishAudit(tx, auditId, { outcome: 'SUCCEEDED', ...completion });
      return result;
    });
  } catch (error) {
    // The caller must see the work's own error, even when the database refuses the FAILED row too.
    if (typeof error === 'object' && error !== null) auditedErrors.add(error);
    await prisma.auditEvent
      .create({
        data: {
          ...rowFor(auditId ?? randomUUID(), request, stored, startedAt),
          outcome: 'FAILED',
          error: error instanceof Error ? error.message : String(error),
          finishedAt: new Date(),
        },
      })
      .catch((auditError: unknown) =>
        log.error({ err: auditError, action: entry.action }, 'cannot record the failure'),
      );
    throw error;
  }
}
