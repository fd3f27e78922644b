// Saved queries, kept per user: listed with those others shared, changed and removed by their owner only. Each
// change is audited (the query text is a parameter: it may name values, so the audit view governs it).
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { PrismaClient } from '@/base/db/database.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import {
  pageOf,
  parseSort,
  ProblemError,
  validationProblem,
  type RequestContext,
} from '@/modules/kernel/core/index.ts';
import type { removeQueryInput, saveQueryInput, savedQueriesInput, savedQueryView } from './saved-queries.schema.ts';

type View = z.infer<typeof savedQueryView>;

function signedInUser(request: RequestContext): string {
  const userId = request.actor.userId;
  if (!userId)
    throw new ProblemError({
      type: 'forbidden',
      title: 'Forbidden',
      status: 403,
      detail: 'Saved queries belong to a user: sign in as one.',
    });
  return userId;
}

/** The user's name as the audit shows it, without the API token an agent used (`<owner> [token: <name>]`). */
const ownerNameOf = (request: RequestContext) => request.actor.name.replace(/ \[token: [^\]]*\]$/, '');

const notFound = () =>
  new ProblemError({ type: 'not-found', title: 'Not found', status: 404, detail: 'No such saved query of yours.' });

export async function listSavedQueries(
  prisma: PrismaClient,
  request: RequestContext,
  input: z.infer<typeof savedQueriesInput>,
): Promise<{ items: View[]; total: number; page: number; pageSize: number }> {
  const userId = signedInUser(request);
  const where = {
    OR: [{ ownerId: userId }, { shared: true }],
    ...(input.q ? { name: { contains: input.q, mode: 'insensitive' as const } } : {}),
  };
  const sort = parseSort<'name' | 'updatedAt'>(input.sort);
  const [rows, total] = await Promise.all([
    prisma.sqlSavedQuery.findMany({
      where,
      orderBy: [{ [sort.field]: sort.direction }, { id: 'asc' }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
    prisma.sqlSavedQuery.count({ where }),
  ]);
  const items = rows.map((row) => ({
    id: row.id,
    name: row.name,
    sql: row.text,
    source: row.source as View['source'],
    shared: row.shared,
    ownerName: row.ownerName,
    mine: row.ownerId === userId,
    updatedAt: row.updatedAt.toISOString(),
  }));
  return pageOf(items, total, input.page, input.pageSize);
}

export async function saveQuery(
  prisma: PrismaClient,
  request: RequestContext,
  input: z.infer<typeof saveQueryInput>,
): Promise<{ id: string; dryRun: boolean }> {
  const ownerId = signedInUser(request);
  if (input.id && !(await prisma.sqlSavedQuery.findFirst({ where: { id: input.id, ownerId } }))) throw notFound();
  const clash = await prisma.sqlSavedQuery.findFirst({
    where: { ownerId, name: input.name, ...(input.id ? { NOT: { id: input.id } } : {}) },
  });
  if (clash)
    throw new ProblemError(validationProblem([{ field: 'name', message: 'is already one of your saved queries' }]));
  const id = input.id ?? randomUUID();
  await audited(
    prisma,
    request,
    {
      action: input.id ? 'sql.query.update' : 'sql.query.save',
      target: input.name,
      parameters: { sql: input.sql, source: input.source, shared: input.shared },
      dryRun: input.dryRun,
    },
    async (tx) => {
      if (!input.dryRun) {
        const data = { name: input.name, text: input.sql, source: input.source, shared: input.shared };
        if (input.id) await tx.sqlSavedQuery.update({ where: { id }, data: { ...data, updatedAt: new Date() } });
        else await tx.sqlSavedQuery.create({ data: { id, ownerId, ownerName: ownerNameOf(request), ...data } });
      }
      return { result: undefined };
    },
  );
  return { id, dryRun: input.dryRun };
}

export async function removeQuery(
  prisma: PrismaClient,
  request: RequestContext,
  input: z.infer<typeof removeQueryInput>,
): Promise<{ id: string; dryRun: boolean }> {
  const ownerId = signedInUser(request);
  const row = await prisma.sqlSavedQuery.findFirst({ where: { id: input.id, ownerId } });
  if (!row) throw notFound();
  await audited(
    prisma,
    request,
    { action: 'sql.query.remove', target: row.name, parameters: {}, dryRun: input.dryRun },
    async (tx) => {
      if (!input.dryRun) await tx.sqlSavedQuery.delete({ where: { id: row.id } });
      return { result: undefined };
    },
  );
  return { id: row.id, dryRun: input.dryRun };
}
