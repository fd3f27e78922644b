// /api/v1/identity/providers/{providerId}/group-mappings: an external provider's group → role mappings and its
// default role. PUT replaces the provider's whole set in one audited transaction; sign-ins re-apply it.
import { callerPowers, requireHeldByCaller } from './admin/role-hierarchy.ts';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { PrismaClient } from '@/base/db/database.ts';
import { moduleProcedure, router, scopeExists } from '@/modules/kernel/access/index.ts';
import { notFoundProblem, ProblemError, validationProblem, type FieldError } from '@/modules/kernel/core/index.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import { scopeOf } from './group-mappings.ts';
import { enabledSignInProviders } from './sign-in.service.ts';

const procedure = moduleProcedure('security');

const scopeSchema = z.object({
  kind: z.enum(['GLOBAL', 'ENVIRONMENT', 'CLUSTER']),
  id: z.string().optional().describe('The environment or cluster id; absent for GLOBAL'),
});

const mappingSchema = z.object({
  groupName: z.string().trim().min(1).max(200),
  roleId: z.string(),
  scope: scopeSchema,
});

const mappingSetSchema = z.object({
  providerId: z.string(),
  defaultRoleId: z.string().nullable(),
  mappings: z.array(mappingSchema),
});

const providerInput = z.object({ providerId: z.string().min(1).max(100) });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Only external (redirect) providers have groups; any other id answers like a missing provider. */
function requireExternalProvider(registry: ModuleRegistry, providerId: string): void {
  const provider = enabledSignInProviders(registry).find((candidate) => candidate.id === providerId);
  if (provider?.kind !== 'redirect')
    throw new ProblemError(notFoundProblem(`No external identity provider "${providerId}" is configured.`));
}

async function readMappingSet(prisma: PrismaClient, providerId: string): Promise<z.infer<typeof mappingSetSchema>> {
  const [defaultRole, rows] = await Promise.all([
    prisma.identityProviderDefaultRole.findUnique({ where: { providerId } }),
    prisma.identityGroupMapping.findMany({
      where: { providerId },
      orderBy: [{ groupName: 'asc' }, { createdAt: 'asc' }],
    }),
  ]);
  return {
    providerId,
    defaultRoleId: defaultRole?.roleId ?? null,
    mappings: rows.map((row) => ({
      groupName: row.groupName,
      roleId: row.roleId,
      scope: scopeOf(row.scopeKind, row.scopeId),
    })),
  };
}

/** Every problem of a mapping set at once: unknown roles, scopes without (or with a stray) id, duplicates. */
function mappingSetErrors(
  input: { defaultRoleId: string | null; mappings: readonly z.infer<typeof mappingSchema>[] },
  knownRoleIds: ReadonlySet<string>,
): FieldError[] {
  const errors: FieldError[] = [];
  if (input.defaultRoleId !== null && !knownRoleIds.has(input.defaultRoleId))
    errors.push({ field: 'defaultRoleId', message: 'is not a known role' });
  const seen = new Set<string>();
  input.mappings.forEach((mapping, index) => {
    const field = `mappings.${index}`;
    if (!knownRoleIds.has(mapping.roleId)) errors.push({ field: `${field}.roleId`, message: 'is not a known role' });
    const { kind, id } = mapping.scope;
    if (kind === 'GLOBAL' && id !== undefined)
      errors.push({ field: `${field}.scope.id`, message: 'must be absent for a GLOBAL scope' });
    if (kind !== 'GLOBAL' && !(id && UUID.test(id)))
      errors.push({ field: `${field}.scope.id`, message: `must be the ${kind.toLowerCase()}'s id (a UUID)` });
    const key = JSON.stringify([mapping.groupName, mapping.roleId, kind, id ?? null]);
    if (seen.has(key)) errors.push({ field, message: 'repeats an earlier mapping' });
    seen.add(key);
  });
  return errors;
}

export const groupMappingsRouter = router({
  get: procedure({ permission: 'roles:read' })
    .meta({
      openapi: {
        method: 'GET',
        path: '/identity/providers/{providerId}/group-mappings',
        tags: ['identity'],
        summary: "An external provider's group → role mappings and default role",
      },
    })
    .input(providerInput)
    .output(mappingSetSchema)
    .query(({ ctx, input }) => {
      requireExternalProvider(ctx.runtime.registry, input.providerId);
      return readMappingSet(ctx.runtime.prisma, input.providerId);
    }),

  put: procedure({ permission: 'roles:write' })
    .meta({
      openapi: {
        method: 'PUT',
        path: '/identity/providers/{providerId}/group-mappings',
        tags: ['identity'],
        summary: "Replace an external provider's group mappings and default role (applies at each user's next sign-in)",
      },
    })
    .input(
      providerInput.extend({
        defaultRoleId: z.string().nullable(),
        mappings: z.array(mappingSchema).max(1_000),
        dryRun: z.boolean().default(false),
      }),
    )
    .output(mappingSetSchema.extend({ dryRun: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const { prisma, registry } = ctx.runtime;
      requireExternalProvider(registry, input.providerId);
      const wanted = [input.defaultRoleId, ...input.mappings.map((mapping) => mapping.roleId)].filter(
        (id): id is string => id !== null && UUID.test(id),
      );
      const roles = await prisma.role.findMany({ where: { id: { in: [...new Set(wanted)] } } });
      requireHeldByCaller(
        await callerPowers(ctx),
        roles.flatMap((role) => role.permissions),
        'Mapping groups to these roles',
      );
      const errors = mappingSetErrors(input, new Set(roles.map((role) => role.id)));
      if (errors.length === 0) {
        // Well-formed scope ids must also name an environment or cluster that exists.
        const found = await Promise.all(input.mappings.map((mapping) => scopeExists(registry, prisma, mapping.scope)));
        found.forEach((exists, index) => {
          const kind = input.mappings[index]?.scope.kind.toLowerCase() ?? 'scope';
          if (!exists) errors.push({ field: `mappings.${index}.scope.id`, message: `no ${kind} has this id` });
        });
      }
      if (errors.length > 0) throw new ProblemError(validationProblem(errors));
      const { providerId, defaultRoleId, mappings, dryRun } = input;
      await audited(
        prisma,
        ctx.request,
        {
          action: 'identity.group-mappings.replace',
          target: providerId,
          parameters: { defaultRoleId, mappings },
          dryRun,
        },
        async (tx) => {
          if (dryRun) return { result: undefined };
          await tx.identityGroupMapping.deleteMany({ where: { providerId } });
          await tx.identityGroupMapping.createMany({
            data: mappings.map((mapping) => ({
              id: randomUUID(),
              providerId,
              groupName: mapping.groupName,
              roleId: mapping.roleId,
              scopeKind: mapping.scope.kind,
              scopeId: mapping.scope.kind === 'GLOBAL' ? null : (mapping.scope.id ?? null),
              createdBy: ctx.request.actor.name,
            })),
          });
          if (defaultRoleId === null) await tx.identityProviderDefaultRole.deleteMany({ where: { providerId } });
          else
            await tx.identityProviderDefaultRole.upsert({
              where: { providerId },
              create: { providerId, roleId: defaultRoleId, updatedBy: ctx.request.actor.name },
              update: { roleId: defaultRoleId, updatedBy: ctx.request.actor.name, updatedAt: new Date() },
            });
          return { result: undefined };
        },
      );
      const stored = dryRun
        ? {
            providerId,
            defaultRoleId,
            mappings: mappings.map((m) => ({ ...m, scope: scopeOf(m.scope.kind, m.scope.id ?? null) })),
          }
        : await readMappingSet(prisma, providerId);
      return { ...stored, dryRun };
    }),

  /** The roles a mapping may name, for the console's pickers (tRPC only; the roles API lists roles in full). */
  roleChoices: procedure({ permission: 'roles:read' })
    .input(z.void())
    .output(z.array(z.object({ id: z.string(), name: z.string(), builtIn: z.boolean() })))
    .query(({ ctx }) =>
      ctx.runtime.prisma.role.findMany({ select: { id: true, name: true, builtIn: true }, orderBy: { name: 'asc' } }),
    ),
});
