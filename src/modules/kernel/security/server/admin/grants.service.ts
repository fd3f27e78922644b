// Users' grants: a role given to one user at a scope. Group grants are the identity providers' group mappings
// and are not listed or changed here. An environment or cluster scope must name one that exists (asked of the
// module that owns clusters through the cluster guard's locator).
import { containing } from '@/base/db/like-pattern.ts';
import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@/base/db/database.ts';
import { Prisma } from '@/generated/prisma/client.ts';
import { pageOf, parseSort, type RequestContext } from '@/modules/kernel/core/index.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import { scopeExists } from '@/modules/kernel/access/index.ts';
import { conflict, invalid, notFound } from './admin-problems.ts';
import type { CreateGrantInput, GRANT_SORT_FIELDS, GrantView, ListGrantsInput, SCOPE_KINDS } from './grants.schema.ts';
import { ensureAdministratorRemains } from './last-admin.ts';

interface GrantRow {
  id: string;
  user_id: string;
  username: string;
  display_name: string | null;
  role_id: string;
  role_name: string;
  scope_kind: (typeof SCOPE_KINDS)[number];
  scope_id: string | null;
  created_at: Date;
  created_by: string | null;
}

const ORDER_BY: Record<(typeof GRANT_SORT_FIELDS)[number], Prisma.Sql> = {
  createdAt: Prisma.sql`g.created_at`,
  username: Prisma.sql`lower(u.username)`,
  roleName: Prisma.sql`lower(r.name)`,
  scopeKind: Prisma.sql`g.scope_kind`,
};

const FROM = Prisma.sql`
  FROM flotilla_grant g
  JOIN flotilla_user u ON u.id = g.user_id
  JOIN flotilla_role r ON r.id = g.role_id`;

const SELECT = Prisma.sql`SELECT g.id, g.user_id, u.username, u.display_name, g.role_id, r.name AS role_name,
  g.scope_kind, g.scope_id, g.created_at, g.created_by`;

function viewOf(row: GrantRow): GrantView {
  return {
    id: row.id,
    userId: row.user_id,
    username: row.username,
    userDisplayName: row.display_name,
    roleId: row.role_id,
    roleName: row.role_name,
    scope: { kind: row.scope_kind, id: row.scope_id },
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by,
  };
}

function whereOf(input: Partial<Pick<ListGrantsInput, 'q' | 'userId' | 'roleId' | 'scopeKind'>> & { id?: string }) {
  const conditions = [Prisma.sql`g.principal = 'USER'`];
  if (input.id) conditions.push(Prisma.sql`g.id = ${input.id}::uuid`);
  if (input.userId) conditions.push(Prisma.sql`g.user_id = ${input.userId}::uuid`);
  if (input.roleId) conditions.push(Prisma.sql`g.role_id = ${input.roleId}::uuid`);
  if (input.scopeKind) conditions.push(Prisma.sql`g.scope_kind = ${input.scopeKind}`);
  if (input.q) {
    const pattern = containing(input.q);
    conditions.push(
      Prisma.sql`(u.username ILIKE ${pattern} OR u.display_name ILIKE ${pattern} OR r.name ILIKE ${pattern}
        OR g.scope_id ILIKE ${pattern})`,
    );
  }
  return Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}`;
}

export async function listGrants(prisma: PrismaClient, input: ListGrantsInput) {
  const { field, direction } = parseSort<(typeof GRANT_SORT_FIELDS)[number]>(input.sort);
  const order = Prisma.raw(direction === 'desc' ? 'DESC' : 'ASC');
  const where = whereOf(input);
  const [rows, counted] = await Promise.all([
    prisma.$queryRaw<GrantRow[]>`${SELECT} ${FROM} ${where}
      ORDER BY ${ORDER_BY[field]} ${order}, g.id ${order}
      LIMIT ${input.pageSize} OFFSET ${(input.page - 1) * input.pageSize}`,
    prisma.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total ${FROM} ${where}`,
  ]);
  return pageOf(rows.map(viewOf), counted[0]?.total ?? 0, input.page, input.pageSize);
}

export async function getGrant(prisma: PrismaClient, id: string): Promise<GrantView> {
  const [row] = await prisma.$queryRaw<GrantRow[]>`${SELECT} ${FROM} ${whereOf({ id })}`;
  if (!row) throw notFound('grant');
  return viewOf(row);
}

export async function createGrant(
  prisma: PrismaClient,
  registry: ModuleRegistry,
  request: RequestContext,
  input: CreateGrantInput,
) {
  const [user, role, scopeFound] = await Promise.all([
    prisma.user.findUnique({ where: { id: input.userId } }),
    prisma.role.findUnique({ where: { id: input.roleId } }),
    scopeExists(registry, prisma, input.scope),
  ]);
  const missing = [
    ...(user ? [] : [{ field: 'userId', message: 'no user has this id' }]),
    ...(role ? [] : [{ field: 'roleId', message: 'no role has this id' }]),
    ...(scopeFound ? [] : [{ field: 'scope.id', message: `no ${input.scope.kind.toLowerCase()} has this id` }]),
  ];
  if (!user || !role || !scopeFound) throw invalid(missing);
  const scopeId = input.scope.kind === 'GLOBAL' ? null : (input.scope.id ?? null);
  const scopeText = scopeId ? `${input.scope.kind.toLowerCase()} ${scopeId}` : 'everywhere';
  const same = await prisma.grant.findFirst({
    where: { principal: 'USER', userId: user.id, roleId: role.id, scopeKind: input.scope.kind, scopeId },
  });
  if (same) {
    throw conflict('grant-exists', 'Grant exists', `${user.username} holds ${role.name} ${scopeText} already.`, {
      grantId: same.id,
    });
  }
  const row: GrantRow = {
    id: randomUUID(),
    user_id: user.id,
    username: user.username,
    display_name: user.displayName,
    role_id: role.id,
    role_name: role.name,
    scope_kind: input.scope.kind,
    scope_id: scopeId,
    created_at: new Date(),
    created_by: request.actor.name,
  };
  await audited(
    prisma,
    request,
    {
      action: 'grant.create',
      target: `${user.username}: ${role.name} ${scopeText}`,
      parameters: { userId: user.id, roleId: role.id, scope: { kind: input.scope.kind, id: scopeId } },
      dryRun: input.dryRun,
    },
    async (tx) => {
      if (!input.dryRun) {
        await tx.grant.create({
          data: {
            id: row.id,
            roleId: role.id,
            principal: 'USER',
            userId: user.id,
            scopeKind: input.scope.kind,
            scopeId,
            createdAt: row.created_at,
            createdBy: row.created_by,
          },
        });
      }
      return { result: undefined };
    },
  );
  return { grant: viewOf(row), dryRun: input.dryRun };
}

export async function deleteGrant(
  prisma: PrismaClient,
  request: RequestContext,
  input: { id: string; dryRun: boolean },
) {
  const grant = await getGrant(prisma, input.id);
  const scopeText = grant.scope.id ? `${grant.scope.kind.toLowerCase()} ${grant.scope.id}` : 'everywhere';
  const target = `${grant.username}: ${grant.roleName} ${scopeText}`;
  await audited(
    prisma,
    request,
    {
      action: 'grant.delete',
      target,
      parameters: { userId: grant.userId, roleId: grant.roleId },
      dryRun: input.dryRun,
    },
    async (tx) => {
      await ensureAdministratorRemains(
        tx,
        { withoutGrantId: grant.id },
        `Removing ${grant.username}’s ${grant.roleName} grant`,
      );
      if (!input.dryRun) await tx.grant.delete({ where: { id: grant.id } });
      return { result: undefined };
    },
  );
  return { grant, dryRun: input.dryRun };
}
