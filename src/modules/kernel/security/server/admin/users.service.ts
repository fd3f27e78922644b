// Users administration: local accounts are created here; external (OIDC) accounts are provisioned at sign-in and
// only listed, renamed, disabled or deleted here. Disabling, deleting or resetting a password ends the user's
// sessions at once; their API tokens stop with them (principal.ts refuses a disabled owner; a delete cascades).
import { randomUUID } from 'node:crypto';
import type { PrismaClient, Transaction } from '@/base/db/database.ts';
import type { Prisma } from '@/generated/prisma/client.ts';
import { pageOf, parseSort, type RequestContext } from '@/modules/kernel/core/index.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import { hashPassword } from '../passwords.ts';
import { refuseWeakPassword } from '../password-policy.ts';
import { conflict, invalid, isUniqueViolation, notFound } from './admin-problems.ts';
import { ensureAdministratorRemains, soleAdministratorId } from './last-admin.ts';
import type { CreateUserInput, ListUsersInput, UpdateUserInput, USER_SORT_FIELDS, UserView } from './users.schema.ts';

type UserRow = Prisma.UserGetPayload<object>;
type Db = PrismaClient | Transaction;

const LOCAL = 'local';
const NULLABLE_SORT_FIELDS = new Set(['displayName', 'email', 'lastSignInAt']);
const iso = (date: Date | null) => date?.toISOString() ?? null;
const blankToNull = (text: string | null | undefined) => (text ? text : null);

function viewOf(user: UserRow, grantCount: number, soleAdministrator: string | null): UserView {
  return {
    id: user.id,
    username: user.username,
    displayName: user.displayName,
    email: user.email,
    providerId: user.providerId,
    external: user.providerId !== LOCAL,
    disabled: user.disabled,
    mustChangePassword: user.mustChangePassword,
    grantCount,
    soleAdministrator: soleAdministrator === user.id,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
    lastSignInAt: iso(user.lastSignInAt),
  };
}

async function grantCounts(db: Db, userIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await db.grant.groupBy({
    by: ['userId'],
    where: { principal: 'USER', userId: { in: [...userIds] } },
    _count: { _all: true },
  });
  return new Map(rows.map((row) => [row.userId ?? '', row._count._all]));
}

async function findUser(db: Db, id: string): Promise<UserRow> {
  const user = await db.user.findUnique({ where: { id } });
  if (!user) throw notFound('user');
  return user;
}

function usernameTaken(username: string) {
  return conflict('username-taken', 'Username taken', `A local user named "${username}" exists already.`, {
    errors: [{ field: 'username', message: 'is taken (usernames are compared regardless of case)' }],
  });
}

export async function listUsers(prisma: PrismaClient, input: ListUsersInput) {
  const where: Prisma.UserWhereInput = input.q
    ? {
        OR: (['username', 'displayName', 'email'] as const).map((field) => ({
          [field]: { contains: input.q, mode: 'insensitive' as const },
        })),
      }
    : {};
  const { field, direction } = parseSort<(typeof USER_SORT_FIELDS)[number]>(input.sort);
  const order = NULLABLE_SORT_FIELDS.has(field) ? { sort: direction, nulls: 'last' as const } : direction;
  const [rows, total] = await Promise.all([
    prisma.user.findMany({
      where,
      orderBy: [{ [field]: order }, { id: direction }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
    prisma.user.count({ where }),
  ]);
  const counts = await grantCounts(
    prisma,
    rows.map((row) => row.id),
  );
  const sole = await soleAdministratorId(prisma);
  const items = rows.map((row) => viewOf(row, counts.get(row.id) ?? 0, sole));
  return pageOf(items, total, input.page, input.pageSize);
}

export async function getUser(prisma: PrismaClient, id: string): Promise<UserView> {
  const user = await findUser(prisma, id);
  return viewOf(user, (await grantCounts(prisma, [id])).get(id) ?? 0, await soleAdministratorId(prisma));
}

export async function createUser(prisma: PrismaClient, request: RequestContext, input: CreateUserInput) {
  const taken = await prisma.user.findFirst({
    where: { providerId: LOCAL, username: { equals: input.username, mode: 'insensitive' } },
  });
  if (taken) throw usernameTaken(input.username);
  await refuseWeakPassword(input.password, input.username, 'password');
  const now = new Date();
  const user: UserRow = {
    id: randomUUID(),
    username: input.username,
    displayName: blankToNull(input.displayName),
    email: input.email ?? null,
    providerId: LOCAL,
    externalSubject: null,
    // A dry run does not pay for a hash it would throw away.
    passwordHash: input.dryRun ? null : await hashPassword(input.password),
    mustChangePassword: input.mustChangePassword,
    disabled: false,
    createdAt: now,
    updatedAt: now,
    lastSignInAt: null,
  };
  try {
    await audited(
      prisma,
      request,
      {
        action: 'user.create',
        target: user.username,
        parameters: { displayName: user.displayName, email: user.email, mustChangePassword: user.mustChangePassword },
        dryRun: input.dryRun,
      },
      async (tx) => {
        if (!input.dryRun) await tx.user.create({ data: user });
        return { result: undefined };
      },
    );
  } catch (error) {
    throw isUniqueViolation(error) ? usernameTaken(input.username) : error;
  }
  return { user: viewOf(user, 0, null), dryRun: input.dryRun, sessionsEnded: 0 };
}

export async function updateUser(prisma: PrismaClient, request: RequestContext, input: UpdateUserInput) {
  const user = await findUser(prisma, input.id);
  if (input.password !== undefined && user.providerId !== LOCAL) {
    throw invalid(
      [{ field: 'password', message: `cannot be set: the provider "${user.providerId}" signs this user in` }],
      'An external user’s password belongs to their identity provider.',
    );
  }
  if (input.password !== undefined) await refuseWeakPassword(input.password, user.username, 'password');
  const disabling = input.disabled === true && !user.disabled;
  const resetting = input.password !== undefined;
  const changes = {
    ...(input.displayName !== undefined ? { displayName: blankToNull(input.displayName) } : {}),
    ...(input.email !== undefined ? { email: input.email } : {}),
    ...(input.disabled !== undefined ? { disabled: input.disabled } : {}),
  };
  const passwordHash = resetting && !input.dryRun ? await hashPassword(input.password ?? '') : undefined;
  const updated: UserRow = {
    ...user,
    ...changes,
    ...(resetting ? { mustChangePassword: true } : {}),
    updatedAt: new Date(),
  };
  const sessionsEnded = await audited(
    prisma,
    request,
    {
      action: 'user.update',
      target: user.username,
      parameters: { ...changes, passwordReset: resetting },
      dryRun: input.dryRun,
    },
    async (tx) => {
      if (disabling) await ensureAdministratorRemains(tx, { withoutUserId: user.id }, `Disabling ${user.username}`);
      const endsSessions = disabling || resetting;
      if (input.dryRun) return { result: endsSessions ? await tx.session.count({ where: { userId: user.id } }) : 0 };
      await tx.user.update({
        where: { id: user.id },
        data: {
          ...changes,
          updatedAt: updated.updatedAt,
          ...(passwordHash ? { passwordHash, mustChangePassword: true } : {}),
        },
      });
      if (!endsSessions) return { result: 0 };
      return { result: (await tx.session.deleteMany({ where: { userId: user.id } })).count };
    },
  );
  const grants = (await grantCounts(prisma, [user.id])).get(user.id) ?? 0;
  return { user: viewOf(updated, grants, await soleAdministratorId(prisma)), dryRun: input.dryRun, sessionsEnded };
}

export async function deleteUser(
  prisma: PrismaClient,
  request: RequestContext,
  input: { id: string; dryRun: boolean },
) {
  const user = await findUser(prisma, input.id);
  const grants = (await grantCounts(prisma, [user.id])).get(user.id) ?? 0;
  const sessionsEnded = await audited(
    prisma,
    request,
    { action: 'user.delete', target: user.username, parameters: { providerId: user.providerId }, dryRun: input.dryRun },
    async (tx) => {
      await ensureAdministratorRemains(tx, { withoutUserId: user.id }, `Deleting ${user.username}`);
      const sessions = await tx.session.count({ where: { userId: user.id } });
      // Sessions, grants and API tokens go with the user (their foreign keys cascade).
      if (!input.dryRun) await tx.user.delete({ where: { id: user.id } });
      return { result: sessions };
    },
  );
  return { user: viewOf(user, grants, await soleAdministratorId(prisma)), dryRun: input.dryRun, sessionsEnded };
}
