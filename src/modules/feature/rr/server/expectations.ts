// Declared expectations: per request address, the latency its replies should keep and the deadline past which a
// request without a reply is TIMED_OUT. Each change is audited (the audit row committed before anything else) and
// versioned: rr_expectation_revision keeps every version, a removal included. Only addresses a user may name: the
// broker's own management and notification addresses are refused.
import type { z } from 'zod';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { PrismaClient } from '@/base/db/database.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import { ProblemError, type RequestContext } from '@/modules/kernel/core/index.ts';
import { refuseReservedNames } from '@/modules/platform/clusters/index.ts';
import type { putExpectationInput, removeExpectationInput } from './rr.schema.ts';

const NEXT = 'The correlator of the cluster’s worker takes it at once; requests already waiting keep their deadline.';

/** The channel that tells the cluster's correlator to read its expectations again (rr-runtime.ts listens). */
export const EXPECTATIONS_CHANNEL = 'flotilla_rr_expectations';

interface ExpectationRuntime {
  readonly prisma: PrismaClient;
  readonly bus: DatabaseBus;
}

export async function listExpectations(prisma: PrismaClient, clusterId: string) {
  const rows = await prisma.rrExpectation.findMany({ where: { clusterId }, orderBy: { address: 'asc' } });
  return rows.map(expectationOf);
}

export function expectationOf(row: {
  address: string;
  replyAddress: string | null;
  expectedLatencyMs: number;
  deadlineMs: number;
  version: number;
  updatedBy: string | null;
  updatedAt: Date;
}) {
  return {
    address: row.address,
    replyAddress: row.replyAddress,
    expectedLatencyMs: row.expectedLatencyMs,
    deadlineMs: row.deadlineMs,
    version: row.version,
    updatedBy: row.updatedBy,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function putExpectation(
  { prisma, bus }: ExpectationRuntime,
  request: RequestContext,
  cluster: { readonly id: string; readonly name: string },
  input: z.infer<typeof putExpectationInput>,
) {
  await refuseReservedNames(
    prisma,
    cluster.id,
    [
      ['address', input.address],
      ['replyAddress', input.replyAddress],
    ],
    'not traced',
  );
  const current = await prisma.rrExpectation.findUnique({
    where: { clusterId_address: { clusterId: cluster.id, address: input.address } },
  });
  const version = (current?.version ?? (await lastVersion(prisma, cluster.id, input.address))) + 1;
  const values = {
    replyAddress: input.replyAddress,
    expectedLatencyMs: input.expectedLatencyMs,
    deadlineMs: input.deadlineMs,
  };
  await audited(
    prisma,
    request,
    {
      action: current ? 'rr.expectation.update' : 'rr.expectation.create',
      target: input.address,
      parameters: { ...values, version },
      dryRun: input.dryRun,
      cluster,
    },
    async (tx) => {
      if (input.dryRun) return { result: undefined };
      const at = new Date();
      const row = { ...values, version, updatedBy: request.actor.name, updatedAt: at };
      await tx.rrExpectation.upsert({
        where: { clusterId_address: { clusterId: cluster.id, address: input.address } },
        create: { clusterId: cluster.id, address: input.address, ...row },
        update: row,
      });
      await tx.rrExpectationRevision.create({
        data: { clusterId: cluster.id, address: input.address, version, ...values, actor: request.actor.name, at },
      });
      return { result: undefined };
    },
  );
  if (!input.dryRun) await bus.notify(EXPECTATIONS_CHANNEL, cluster.id);
  return {
    address: input.address,
    version,
    dryRun: input.dryRun,
    next: input.dryRun ? `Dry run: nothing stored. ${NEXT}` : NEXT,
  };
}

async function lastVersion(prisma: PrismaClient, clusterId: string, address: string): Promise<number> {
  const last = await prisma.rrExpectationRevision.findFirst({
    where: { clusterId, address },
    orderBy: { version: 'desc' },
    select: { version: true },
  });
  return last?.version ?? 0;
}

export async function removeExpectation(
  { prisma, bus }: ExpectationRuntime,
  request: RequestContext,
  cluster: { readonly id: string; readonly name: string },
  input: z.infer<typeof removeExpectationInput>,
) {
  const current = await prisma.rrExpectation.findUnique({
    where: { clusterId_address: { clusterId: cluster.id, address: input.address } },
  });
  if (!current)
    throw new ProblemError({
      type: 'not-found',
      title: 'Not found',
      status: 404,
      detail: 'No expectation is declared for this address on this cluster.',
    });
  const version = current.version + 1;
  await audited(
    prisma,
    request,
    { action: 'rr.expectation.remove', target: input.address, parameters: { version }, dryRun: input.dryRun, cluster },
    async (tx) => {
      if (input.dryRun) return { result: undefined };
      await tx.rrExpectation.delete({
        where: { clusterId_address: { clusterId: cluster.id, address: input.address } },
      });
      await tx.rrExpectationRevision.create({
        data: {
          clusterId: cluster.id,
          address: input.address,
          version,
          removed: true,
          actor: request.actor.name,
          at: new Date(),
        },
      });
      return { result: undefined };
    },
  );
  if (!input.dryRun) await bus.notify(EXPECTATIONS_CHANNEL, cluster.id);
  const next = 'Requests to this address fall back to rr.default-deadline (or their own expiration).';
  return {
    address: input.address,
    version,
    dryRun: input.dryRun,
    next: input.dryRun ? `Dry run: nothing removed. ${next}` : next,
  };
}

export async function expectationHistory(prisma: PrismaClient, clusterId: string, address: string) {
  const rows = await prisma.rrExpectationRevision.findMany({
    where: { clusterId, address },
    orderBy: { version: 'desc' },
    take: 200,
  });
  return rows.map((row) => ({
    version: row.version,
    replyAddress: row.replyAddress,
    expectedLatencyMs: row.expectedLatencyMs,
    deadlineMs: row.deadlineMs,
    removed: row.removed,
    actor: row.actor,
    at: row.at.toISOString(),
  }));
}
