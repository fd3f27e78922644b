// Revisions of a cluster's declared configuration: every save is a new revision (author, comment, source), never an
// edit. A save names the revision it started from; when another save came first it is refused with 409
// `revision-conflict`, so nobody overwrites a change they never saw. Audited (the row committed with the revision).
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { PrismaClient } from '@/base/db/database.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import { ProblemError, type RequestContext } from '@/modules/kernel/core/index.ts';
import { publishSignal } from '@/modules/kernel/stream/index.ts';
import { configDocument, EMPTY_DOCUMENT, type ConfigDocument } from '../model/document.ts';
import { countsOf, diffDocuments } from '../model/document-diff.ts';
import { refuseReservedDocumentNames } from './document-names.ts';

type RevisionSource = 'edit' | 'adopt' | 'recommendation';

export interface StoredRevision {
  readonly number: number;
  readonly document: ConfigDocument;
  readonly comment: string;
  readonly source: string;
  readonly author: string;
  readonly createdAt: Date;
}

const revisionOf = (row: {
  number: number;
  document: unknown;
  comment: string;
  source: string;
  author: string;
  createdAt: Date;
}): StoredRevision => ({ ...row, document: configDocument.parse(row.document) });

export async function currentRevision(prisma: PrismaClient, clusterId: string): Promise<StoredRevision | null> {
  const row = await prisma.configRevision.findFirst({ where: { clusterId }, orderBy: { number: 'desc' } });
  return row ? revisionOf(row) : null;
}

export async function readRevision(prisma: PrismaClient, clusterId: string, number: number) {
  const [row, previous] = await Promise.all([
    prisma.configRevision.findUnique({ where: { clusterId_number: { clusterId, number } } }),
    prisma.configRevision.findFirst({ where: { clusterId, number: { lt: number } }, orderBy: { number: 'desc' } }),
  ]);
  if (!row) return null;
  const revision = revisionOf(row);
  const before = previous ? revisionOf(previous).document : EMPTY_DOCUMENT;
  return { ...revision, changes: diffDocuments(before, revision.document) };
}

/** Every revision, newest first, each with what changed from the one before. */
export async function listRevisions(prisma: PrismaClient, clusterId: string) {
  const rows = (await prisma.configRevision.findMany({ where: { clusterId }, orderBy: { number: 'asc' } })).map(
    revisionOf,
  );
  return rows
    .map((revision, index) => ({
      ...revision,
      counts: countsOf(revision.document),
      changes: diffDocuments(rows[index - 1]?.document ?? EMPTY_DOCUMENT, revision.document),
    }))
    .reverse();
}

interface SaveInput {
  readonly document: ConfigDocument;
  readonly comment: string;
  /** The revision the author started from (0: none yet). */
  readonly baseRevision: number;
  readonly source: RevisionSource;
  readonly dryRun: boolean;
}

function conflict(current: number, base: number): ProblemError {
  return new ProblemError({
    type: 'revision-conflict',
    title: 'Revision conflict',
    status: 409,
    detail: `Revision ${String(current)} was saved after revision ${String(base)}, which this change started from: read it, then save again on top of it.`,
  });
}

export async function saveRevision(
  runtime: { readonly prisma: PrismaClient; readonly bus: DatabaseBus },
  request: RequestContext,
  cluster: { readonly id: string; readonly name: string },
  input: SaveInput,
) {
  const { prisma } = runtime;
  await refuseReservedDocumentNames(prisma, cluster.id, input.document);
  const current = await currentRevision(prisma, cluster.id);
  const currentNumber = current?.number ?? 0;
  if (input.baseRevision !== currentNumber) throw conflict(currentNumber, input.baseRevision);
  const number = currentNumber + 1;
  const changes = diffDocuments(current?.document ?? EMPTY_DOCUMENT, input.document);
  await audited(
    prisma,
    request,
    {
      action: 'config.revision.save',
      target: `revision ${String(number)}`,
      parameters: {
        number,
        source: input.source,
        comment: input.comment,
        changes: changes.length,
        counts: countsOf(input.document),
      },
      dryRun: input.dryRun,
      cluster,
    },
    async (tx) => {
      if (input.dryRun) return { result: undefined };
      // The primary key (cluster, number) refuses a save that raced this one past the check above.
      await tx.configRevision.create({
        data: {
          clusterId: cluster.id,
          number,
          document: input.document,
          comment: input.comment,
          source: input.source,
          author: request.actor.name,
        },
      });
      return { result: undefined };
    },
  ).catch((error: unknown) => {
    if (typeof error === 'object' && error !== null && 'code' in error && error.code === 'P2002')
      throw conflict(number, input.baseRevision);
    throw error;
  });
  if (!input.dryRun) await publishSignal(runtime.bus, 'config', cluster.id).catch(() => undefined);
  return { number, dryRun: input.dryRun, changes };
}
