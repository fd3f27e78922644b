// Bridge credentials: a document names one (`passwordRef`), the vault keeps it sealed, bound to
// `config-secret:<cluster>:<name>` so a value copied to another row does not open. The value goes in once and comes
// out only to the apply step that writes the bridge; no answer, audit row or log ever holds it.
import type { PrismaClient } from '@/base/db/database.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import { ProblemError, type RequestContext } from '@/modules/kernel/core/index.ts';
import { openSecret, processKeys, sealSecret } from '@/modules/platform/governance/index.ts';

const bindingOf = (clusterId: string, name: string) => `config-secret:${clusterId}:${name}`;

export async function listSecrets(prisma: PrismaClient, clusterId: string) {
  const rows = await prisma.configSecret.findMany({ where: { clusterId }, orderBy: { name: 'asc' } });
  return rows.map((row) => ({ name: row.name, updatedBy: row.updatedBy, updatedAt: row.updatedAt.toISOString() }));
}

export async function putSecret(
  prisma: PrismaClient,
  request: RequestContext,
  cluster: { readonly id: string; readonly name: string },
  input: { readonly name: string; readonly value: string; readonly dryRun: boolean },
) {
  const sealed = sealSecret(processKeys(), input.value, bindingOf(cluster.id, input.name));
  await audited(
    prisma,
    request,
    {
      action: 'config.secret.put',
      target: input.name,
      parameters: { name: input.name },
      dryRun: input.dryRun,
      cluster,
    },
    async (tx) => {
      if (input.dryRun) return { result: undefined };
      const row = { cipher: sealed.cipher, keyId: sealed.keyId, updatedBy: request.actor.name, updatedAt: new Date() };
      await tx.configSecret.upsert({
        where: { clusterId_name: { clusterId: cluster.id, name: input.name } },
        create: { clusterId: cluster.id, name: input.name, ...row },
        update: row,
      });
      return { result: undefined };
    },
  );
  return { name: input.name, dryRun: input.dryRun };
}

export async function removeSecret(
  prisma: PrismaClient,
  request: RequestContext,
  cluster: { readonly id: string; readonly name: string },
  input: { readonly name: string; readonly dryRun: boolean },
) {
  const found = await prisma.configSecret.findUnique({
    where: { clusterId_name: { clusterId: cluster.id, name: input.name } },
  });
  if (!found)
    throw new ProblemError({
      type: 'not-found',
      title: 'Not found',
      status: 404,
      detail: 'No such bridge credential.',
    });
  await audited(
    prisma,
    request,
    {
      action: 'config.secret.remove',
      target: input.name,
      parameters: { name: input.name },
      dryRun: input.dryRun,
      cluster,
    },
    async (tx) => {
      if (!input.dryRun)
        await tx.configSecret.delete({ where: { clusterId_name: { clusterId: cluster.id, name: input.name } } });
      return { result: undefined };
    },
  );
  return { name: input.name, dryRun: input.dryRun };
}

/** The names a document references that the vault does not hold (an apply refuses them before any write). */
export async function missingSecrets(
  prisma: PrismaClient,
  clusterId: string,
  names: readonly string[],
): Promise<string[]> {
  if (names.length === 0) return [];
  const held = new Set(
    (
      await prisma.configSecret.findMany({ where: { clusterId, name: { in: [...names] } }, select: { name: true } })
    ).map((row) => row.name),
  );
  return names.filter((name) => !held.has(name));
}

/** Opens a credential for the one write that needs it. */
export async function openBridgePassword(prisma: PrismaClient, clusterId: string, name: string): Promise<string> {
  const row = await prisma.configSecret.findUniqueOrThrow({ where: { clusterId_name: { clusterId, name } } });
  return openSecret(processKeys(), { cipher: row.cipher, keyId: row.keyId }, bindingOf(clusterId, name)).toString(
    'utf8',
  );
}
