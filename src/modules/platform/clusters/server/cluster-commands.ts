// Changes to a registered cluster, each audited with the cluster's id and name and each with a dry run: edit
// (credentials re-encrypted under the current key), remove, and rediscover (probe again, add what is new).
import { randomUUID } from 'node:crypto';
import type { BlockList } from 'node:net';
import type { z } from 'zod';
import type { PrismaClient, Transaction } from '@/base/db/database.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import { ProblemError, type RequestContext } from '@/modules/kernel/core/index.ts';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import { CLUSTER_NOT_FOUND } from '@/modules/kernel/access/index.ts';
import type { ManagementLimits } from '@/modules/platform/broker/index.ts';
import type { KeyRing } from '@/modules/platform/governance/index.ts';
import { openPassword, sealPassword } from './credentials/password-cipher.ts';
import { openTls, sealTls, tlsAuditFacts } from './credentials/cluster-tls.ts';
import { openCredentials } from './credentials/credentials-unreadable.ts';
import type { clusterActionInput, updateClusterInput } from './clusters.schema.ts';
import { resolveEnvironment } from './environments.ts';
import { probeCluster, type ProbeResult } from './registration/probe-cluster.ts';

export function nameTakenProblem(name: string): ProblemError {
  return new ProblemError({
    type: 'cluster-name-taken',
    title: 'Cluster name taken',
    status: 409,
    detail: `A cluster named "${name}" is already registered.`,
    errors: [{ field: 'name', message: 'is already used by another cluster' }],
  });
}

async function loadCluster(prisma: PrismaClient, clusterId: string) {
  const cluster = await prisma.cluster.findUnique({ where: { id: clusterId.toLowerCase() } });
  if (!cluster) throw new ProblemError(CLUSTER_NOT_FOUND);
  return cluster;
}

export async function updateCluster(
  prisma: PrismaClient,
  request: RequestContext,
  keys: KeyRing,
  input: z.infer<typeof updateClusterInput>,
) {
  const cluster = await loadCluster(prisma, input.clusterId);
  if (input.name && input.name.toLowerCase() !== cluster.name.toLowerCase()) {
    const taken = await prisma.cluster.findFirst({ where: { name: { equals: input.name, mode: 'insensitive' } } });
    if (taken) throw nameTakenProblem(input.name);
  }
  const changed = [
    input.name !== undefined && input.name !== cluster.name ? 'name' : undefined,
    input.environment !== undefined ? 'environment' : undefined,
    input.description !== undefined && input.description !== cluster.description ? 'description' : undefined,
    input.credentials ? 'credentials' : undefined,
    input.tls !== undefined ? 'tls' : undefined,
  ].filter((field): field is string => field !== undefined);
  await audited(
    prisma,
    request,
    {
      action: 'cluster.update',
      target: cluster.name,
      // Never the password: only that credentials changed and the user name.
      parameters: {
        changed,
        name: input.name,
        environment: input.environment,
        username: input.credentials?.username,
        tls: input.tls === undefined ? undefined : tlsAuditFacts(input.tls),
      },
      dryRun: input.dryRun,
      cluster: { id: cluster.id, name: cluster.name },
    },
    async (tx) => {
      if (input.dryRun || changed.length === 0) return { result: undefined };
      const storedTls = input.tls === undefined ? undefined : sealTls(keys, cluster.id, input.tls);
      const environmentId = input.environment
        ? (await resolveEnvironment(tx, input.environment)).environment.id
        : undefined;
      const sealed = input.credentials
        ? sealPassword(keys, { clusterId: cluster.id, password: input.credentials.password })
        : undefined;
      await tx.cluster.update({
        where: { id: cluster.id },
        data: {
          name: input.name,
          environmentId,
          description: input.description,
          username: input.credentials?.username,
          passwordCipher: sealed?.cipher,
          passwordKeyId: sealed?.keyId,
          tls: input.tls === undefined ? undefined : (storedTls ?? { set: null }),
          updatedAt: new Date(),
        },
      });
      return { result: undefined };
    },
  );
  return { id: cluster.id, dryRun: input.dryRun, changed };
}

export async function deleteCluster(
  prisma: PrismaClient,
  request: RequestContext,
  input: z.infer<typeof clusterActionInput>,
) {
  const cluster = await loadCluster(prisma, input.clusterId);
  await audited(
    prisma,
    request,
    {
      action: 'cluster.remove',
      target: cluster.name,
      dryRun: input.dryRun,
      cluster: { id: cluster.id, name: cluster.name },
    },
    async (tx) => {
      if (!input.dryRun) await deleteClusterRow(tx, cluster.id);
      return { result: undefined };
    },
  );
  return { id: cluster.id, dryRun: input.dryRun, changed: input.dryRun ? [] : ['removed'] };
}

const DELETE_ATTEMPTS = 5;

/** PostgreSQL's deadlock_detected or serialization_failure: Prisma reports both as P2034. */
function isWriteConflict(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2034';
}

/**
 * The worker may be writing the cluster's rows while it is removed: a scrape's transaction holds a queue row the
 * cascade must delete and waits for the cluster row the delete holds (a sample's foreign key), and PostgreSQL ends the
 * cycle by failing one side — seen as a 500 on removal in a clean-clone run. The delete runs under a savepoint and is
 * tried again when it was the side failed, so the audit row's transaction survives and the worker's write goes first.
 */
async function deleteClusterRow(tx: Transaction, clusterId: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    await tx.$executeRawUnsafe('SAVEPOINT cluster_delete');
    try {
      await tx.cluster.delete({ where: { id: clusterId } });
      await tx.$executeRawUnsafe('RELEASE SAVEPOINT cluster_delete');
      return;
    } catch (error) {
      if (!isWriteConflict(error) || attempt >= DELETE_ATTEMPTS) throw error;
      await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT cluster_delete');
    }
  }
}

export function checksFailedProblem(result: ProbeResult, extra: Record<string, unknown>): ProblemError {
  return new ProblemError({
    type: 'registration-checks-failed',
    title: 'Registration checks failed',
    status: 422,
    detail: 'A blocking registration check failed; nothing was saved. See checks for what to change.',
    checks: result.checks,
    ...extra,
  });
}

/** Probes again from the stored nodes (the last one that answered first), then adds new nodes and refreshes roles. */
export async function rediscoverCluster(
  prisma: PrismaClient,
  request: RequestContext,
  keys: KeyRing,
  registry: ModuleRegistry,
  limits: ManagementLimits,
  input: z.infer<typeof clusterActionInput>,
  allowedNetworks: BlockList,
): Promise<ProbeResult> {
  const cluster = await loadCluster(prisma, input.clusterId);
  const stored = await prisma.clusterNode.findMany({
    where: { clusterId: cluster.id },
    orderBy: [{ lastSuccessAt: { sort: 'desc', nulls: 'last' } }, { createdAt: 'asc' }],
  });
  const password = openCredentials(() => openPassword(keys, cluster));
  const tls = openCredentials(() => openTls(keys, cluster));
  const result = await probeCluster(
    registry,
    limits,
    {
      purpose: 'rediscover',
      name: cluster.name,
      nodes: stored.map((node) => ({ managementUrl: node.managementUrl, amqpUrl: node.amqpUrl })),
      credentials: { username: cluster.username, password },
      tls,
    },
    allowedNetworks,
  );
  if (result.refused) throw checksFailedProblem(result, {});
  const known = new Set(stored.map((node) => node.managementUrl));
  await audited(
    prisma,
    request,
    {
      action: 'cluster.rediscover',
      target: cluster.name,
      parameters: {
        added: result.probe.nodes.filter((node) => !known.has(node.managementUrl)).map((node) => node.managementUrl),
      },
      dryRun: input.dryRun,
      cluster: { id: cluster.id, name: cluster.name },
    },
    async (tx) => {
      if (input.dryRun) return { result: undefined };
      for (const node of result.probe.nodes) {
        const facts = {
          amqpUrl: node.amqpUrl,
          urlSource: node.urlSource.method,
          ...(node.state
            ? { brokerName: node.state.name, brokerNodeId: node.state.nodeId || null, role: node.role }
            : {}),
        };
        await tx.clusterNode.upsert({
          where: { clusterId_managementUrl: { clusterId: cluster.id, managementUrl: node.managementUrl } },
          update: facts,
          create: {
            id: randomUUID(),
            clusterId: cluster.id,
            managementUrl: node.managementUrl,
            discovered: node.discovered,
            ...facts,
          },
        });
      }
      for (const [capability, verdict] of Object.entries(result.probe.capabilities)) {
        const row = {
          value: verdict.value,
          detail: verdict.detail,
          snippet: verdict.snippet ?? null,
          checkedAt: new Date(),
          confirmedBy: 'rediscovery',
          // Kept from before unless confirmed now: when it was last available is what a loss is read from.
          ...(verdict.value === 'AVAILABLE' ? { availableAt: new Date() } : {}),
        };
        await tx.clusterCapability.upsert({
          where: { clusterId_capability: { clusterId: cluster.id, capability } },
          update: row,
          create: { clusterId: cluster.id, capability, ...row },
        });
      }
      return { result: undefined };
    },
  );
  return result;
}
