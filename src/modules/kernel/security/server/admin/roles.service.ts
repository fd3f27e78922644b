// Roles administration. Built-in roles are re-derived from the permission catalogue at every start, so they are
// read-only here; custom roles hold any permissions of the catalogue. A role that grants still use cannot go.
import { randomUUID } from 'node:crypto';
import type { PrismaClient, Transaction } from '@/base/db/database.ts';
import type { Prisma } from '@/generated/prisma/client.ts';
import { pageOf, parseSort, type RequestContext } from '@/modules/kernel/core/index.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import { conflict, invalid, isUniqueViolation, notFound } from './admin-problems.ts';
import type { CreateRoleInput, ListRolesInput, ROLE_SORT_FIELDS, RoleView, UpdateRoleInput } from './roles.schema.ts';

type RoleRow = Prisma.RoleGetPayload<object>;
type Db = PrismaClient | Transaction;

function viewOf(role: RoleRow, grantCount: number): RoleView {
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    builtIn: role.builtIn,
    permissions: role.permissions,
    grantCount,
    createdAt: role.createdAt.toISOString(),
    updatedAt: role.updatedAt.toISOString(),
  };
}

/**
 * Everything that gives each role: users' grants, identity providers' group mappings and default roles. (The
 * mappings' foreign keys cascade, so without this count deleting a role would silently drop them.)
 */
async function grantCounts(db: Db, roleIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await db.$queryRaw<{ roleId: string; count: number }[]>`
    SELECT role_id::text AS "roleId", count(*)::int AS count
      FROM (SELECT role_id FROM flotilla_grant
            UNION ALL SELECT role_id FROM identity_group_mapping
            UNION ALL SELECT role_id FROM identity_provider_default_role) AS givers
     WHERE role_id = ANY(${[...roleIds]}::uuid[])
     GROUP BY role_id`;
  return new Map(rows.map((row) => [row.roleId, row.count]));
}

async function findRole(db: Db, id: string): Promise<RoleRow> {
  const role = await db.role.findUnique({ where: { id } });
  if (!role) throw notFound('role');
  return role;
}

function refuseBuiltIn(role: RoleRow, change: string): void {
  if (!role.builtIn) return;
  throw conflict(
    'built-in-role',
    'Built-in role',
    `The built-in role "${role.name}" follows the permission catalogue and cannot be ${change}; create a custom role instead.`,
  );
}

function nameTaken(name: string) {
  return conflict('role-name-taken', 'Role name taken', `A role named "${name}" exists already.`, {
    errors: [{ field: 'name', message: 'is taken (names are compared regardless of case)' }],
  });
}

async function ensureNameFree(prisma: PrismaClient, name: string, exceptId?: string): Promise<void> {
  const taken = await prisma.role.findFirst({
    where: { name: { equals: name, mode: 'insensitive' }, ...(exceptId ? { id: { not: exceptId } } : {}) },
  });
  if (taken) throw nameTaken(name);
}

/** Every permission must come from the catalogue; the answer names the ones that do not. Sorted, no repeats. */
function checkPermissions(requested: readonly string[], catalogue: ReadonlySet<string>): string[] {
  const unknown = [...new Set(requested.filter((permission) => !catalogue.has(permission)))];
  if (unknown.length > 0) {
    throw invalid(
      [{ field: 'permissions', message: `not in the permission catalogue: ${unknown.join(', ')}` }],
      `Unknown permissions: ${unknown.join(', ')}. GET /api/v1/manifest lists the catalogue.`,
      { unknownPermissions: unknown },
    );
  }
  return [...new Set(requested)].sort();
}

async function withUniqueName<Result>(name: string, work: () => Promise<Result>): Promise<Result> {
  try {
    return await work();
  } catch (error) {
    throw isUniqueViolation(error) ? nameTaken(name) : error;
  }
}

export async function listRoles(prisma: PrismaClient, input: ListRolesInput) {
  const where: Prisma.RoleWhereInput = input.q
    ? {
        OR: [
          { name: { contains: input.q, mode: 'insensitive' } },
          { description: { contains: input.q, mode: 'insensitive' } },
          { permissions: { has: input.q } },
        ],
      }
    : {};
  const { field, direction } = parseSort<(typeof ROLE_SORT_FIELDS)[number]>(input.sort);
  const [rows, total] = await Promise.all([
    prisma.role.findMany({
      where,
      orderBy: [{ [field]: direction }, { id: direction }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
    prisma.role.count({ where }),
  ]);
  const counts = await grantCounts(
    prisma,
    rows.map((row) => row.id),
  );
  return pageOf(
    rows.map((row) => viewOf(row, counts.get(row.id) ?? 0)),
    total,
    input.page,
    input.pageSize,
  );
}

export async function getRole(prisma: PrismaClient, id: string): Promise<RoleView> {
  const role = await findRole(prisma, id);
  return viewOf(role, (await grantCounts(prisma, [id])).get(id) ?? 0);
}

export async function createRole(
  prisma: PrismaClient,
  request: RequestContext,
  catalogue: ReadonlySet<string>,
  input: CreateRoleInput,
) {
  const permissions = checkPermissions(input.permissions, catalogue);
  await ensureNameFree(prisma, input.name);
  const now = new Date();
  const role: RoleRow = {
    id: randomUUID(),
    name: input.name,
    description: input.description,
    builtIn: false,
    permissions,
    createdAt: now,
    updatedAt: now,
  };
  await withUniqueName(input.name, () =>
    audited(
      prisma,
      request,
      { action: 'role.create', target: role.name, parameters: { permissions }, dryRun: input.dryRun },
      async (tx) => {
        if (!input.dryRun) await tx.role.create({ data: role });
        return { result: undefined };
      },
    ),
  );
  return { role: viewOf(role, 0), dryRun: input.dryRun };
}

export async function updateRole(
  prisma: PrismaClient,
  request: RequestContext,
  catalogue: ReadonlySet<string>,
  input: UpdateRoleInput,
) {
  const role = await findRole(prisma, input.id);
  refuseBuiltIn(role, 'changed');
  // A permission the role already carries may stay though it names nothing now (a disabled plugin's): it grants
  // nothing, and the plugin's return brings it back.
  const allowed = new Set([...catalogue, ...role.permissions]);
  const permissions = input.permissions ? checkPermissions(input.permissions, allowed) : undefined;
  if (input.name !== undefined) await ensureNameFree(prisma, input.name, role.id);
  const changes = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(permissions ? { permissions } : {}),
  };
  const updated: RoleRow = { ...role, ...changes, updatedAt: new Date() };
  await withUniqueName(updated.name, () =>
    audited(
      prisma,
      request,
      { action: 'role.update', target: role.name, parameters: changes, dryRun: input.dryRun },
      async (tx) => {
        if (!input.dryRun)
          await tx.role.update({ where: { id: role.id }, data: { ...changes, updatedAt: updated.updatedAt } });
        return { result: undefined };
      },
    ),
  );
  return { role: viewOf(updated, (await grantCounts(prisma, [role.id])).get(role.id) ?? 0), dryRun: input.dryRun };
}

export async function deleteRole(
  prisma: PrismaClient,
  request: RequestContext,
  input: { id: string; dryRun: boolean },
) {
  const role = await findRole(prisma, input.id);
  refuseBuiltIn(role, 'deleted');
  await audited(prisma, request, { action: 'role.delete', target: role.name, dryRun: input.dryRun }, async (tx) => {
    // Counted inside the transaction, under a row lock on the role, so a grant created meanwhile is seen.
    await tx.$queryRaw`SELECT id FROM flotilla_role WHERE id = ${role.id}::uuid FOR UPDATE`;
    const inUse = (await grantCounts(tx, [role.id])).get(role.id) ?? 0;
    if (inUse > 0) {
      throw conflict(
        'role-in-use',
        'Role in use',
        `${inUse} ${inUse === 1 ? 'grant gives' : 'grants give'} the role "${role.name}"; remove them first.`,
        { grantCount: inUse },
      );
    }
    if (!input.dryRun) await tx.role.delete({ where: { id: role.id } });
    return { result: undefined };
  });
  return { role: viewOf(role, 0), dryRun: input.dryRun };
}
