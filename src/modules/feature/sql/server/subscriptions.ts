// Adding and removing what feeds the index. A capture is checked against every serving node before it is stored
// (the two preflight refusals answer with the broker configuration that would change them); the tap itself is then
// installed, and later removed, only by the capture reconciler on its next pass, which audits each node's change.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Database, PrismaClient } from '@/base/db/database.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import { ProblemError, validationProblem, type RequestContext } from '@/modules/kernel/core/index.ts';
import { readManagementLimits } from '@/modules/platform/broker/index.ts';
import {
  loadCommandTargets,
  managementClientFor,
  nodeFailureOf,
  refuseReservedNames,
} from '@/modules/platform/clusters/index.ts';
import { loadDeploymentId } from './capture/deployment-id.ts';
import { preflightTap, refuseUncheckedNode } from './capture/preflight.ts';
import { assertCapturableAddress, nodeSegmentOf, tapNamesOf } from './capture/tap-names.ts';
import { SQL_SETTINGS } from './sql.settings.ts';
import type { createSubscriptionInput, removeSubscriptionInput, subscriptionView } from './subscriptions.schema.ts';

export interface SubscriptionRuntime {
  readonly db: Database;
  readonly prisma: PrismaClient;
  readonly settings: { value(key: string): unknown; duration(setting: typeof SQL_SETTINGS.sampleInterval): number };
}

const CAPTURE_NOTICE =
  'Capture is address-scoped: the tap copies each message as it reaches the address, before it is routed to the address’s queues, so for an address with several queues the index holds one row and cannot tell which queues received it.';

export function subscriptionNotices(runtime: SubscriptionRuntime): string[] {
  const seconds = runtime.settings.duration(SQL_SETTINGS.sampleInterval) / 1000;
  return [
    CAPTURE_NOTICE,
    `Sampling browses a queue every ${String(seconds)} s: a queue that drains faster than that is invisible to it, and a message consumed between two browses is never indexed.`,
  ];
}

export async function listSubscriptions(
  prisma: PrismaClient,
  clusterId: string,
): Promise<Array<z.infer<typeof subscriptionView>>> {
  const rows = await prisma.sqlSubscription.findMany({
    where: { clusterId },
    orderBy: [{ address: 'asc' }, { createdAt: 'asc' }],
  });
  return rows.map((row) => ({
    id: row.id,
    address: row.address,
    mode: row.mode as 'CAPTURE' | 'SAMPLE',
    queue: row.queue,
    state: row.state,
    lastError: row.lastError,
    stateChangedAt: row.stateChangedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  }));
}

/** The two refusals, on every serving node now: an exclusive divert there, or a copy no security setting restricts. */
async function preflightCapture(runtime: SubscriptionRuntime, clusterId: string, address: string, id: string) {
  const targets = await loadCommandTargets(runtime.prisma, clusterId);
  if (!targets)
    throw new ProblemError({ type: 'not-found', title: 'Not found', status: 404, detail: 'No such cluster.' });
  const deploymentId = await loadDeploymentId(runtime.db.pool);
  const limits = readManagementLimits((key) => runtime.settings.value(key));
  for (const target of targets.targets) {
    const client = managementClientFor(target.nodeId, target.endpoint, limits);
    try {
      await preflightTap(client, address, tapNamesOf(deploymentId, address, id, nodeSegmentOf(target.logicalNode)));
    } catch (error) {
      if (error instanceof ProblemError) throw error;
      throw refuseUncheckedNode(target.nodeName, nodeFailureOf(error, client.nodeKey));
    }
  }
}

export async function createSubscription(
  runtime: SubscriptionRuntime,
  request: RequestContext,
  cluster: { readonly id: string; readonly name: string },
  input: z.infer<typeof createSubscriptionInput>,
): Promise<{ id: string; dryRun: boolean; next: string }> {
  await refuseReservedNames(
    runtime.prisma,
    input.clusterId,
    [
      ['address', input.address],
      ['address', input.queue ?? null],
    ],
    'not indexed',
  );
  const id = randomUUID();
  if (input.mode === 'CAPTURE') {
    assertCapturableAddress(input.address);
    if (
      await runtime.prisma.sqlSubscription.findFirst({
        where: { clusterId: input.clusterId, address: input.address, mode: 'CAPTURE' },
      })
    )
      throw new ProblemError(validationProblem([{ field: 'address', message: 'is already captured on this cluster' }]));
    await preflightCapture(runtime, input.clusterId, input.address, id);
  } else if (
    await runtime.prisma.sqlSubscription.findFirst({
      where: { clusterId: input.clusterId, address: input.address, queue: input.queue ?? null, mode: 'SAMPLE' },
    })
  )
    throw new ProblemError(validationProblem([{ field: 'queue', message: 'is already sampled on this cluster' }]));
  await audited(
    runtime.prisma,
    request,
    {
      action: input.mode === 'CAPTURE' ? 'sql.capture.subscribe' : 'sql.sample.subscribe',
      target: input.queue ? `${input.address}::${input.queue}` : input.address,
      parameters: { mode: input.mode },
      dryRun: input.dryRun,
      cluster,
    },
    async (tx) => {
      if (!input.dryRun)
        await tx.sqlSubscription.create({
          data: {
            id,
            clusterId: input.clusterId,
            address: input.address,
            mode: input.mode,
            queue: input.queue ?? null,
            createdBy: request.actor.userId,
          },
        });
      return { result: undefined };
    },
  );
  const next =
    input.mode === 'CAPTURE'
      ? 'The capture reconciler installs the tap on every live node on its next pass (sql.capture.reconcile-interval).'
      : 'The sampler browses the queue from its next interval (sql.sample.interval).';
  return { id, dryRun: input.dryRun, next: input.dryRun ? `Dry run: nothing stored. ${next}` : next };
}

export async function removeSubscription(
  runtime: SubscriptionRuntime,
  request: RequestContext,
  cluster: { readonly id: string; readonly name: string },
  input: z.infer<typeof removeSubscriptionInput>,
): Promise<{ id: string; dryRun: boolean; next: string }> {
  const row = await runtime.prisma.sqlSubscription.findFirst({ where: { id: input.id, clusterId: input.clusterId } });
  if (!row)
    throw new ProblemError({
      type: 'not-found',
      title: 'Not found',
      status: 404,
      detail: 'No such subscription on this cluster.',
    });
  await audited(
    runtime.prisma,
    request,
    {
      action: row.mode === 'CAPTURE' ? 'sql.capture.unsubscribe' : 'sql.sample.unsubscribe',
      target: row.queue ? `${row.address}::${row.queue}` : row.address,
      parameters: { mode: row.mode },
      dryRun: input.dryRun,
      cluster,
    },
    async (tx) => {
      if (!input.dryRun) await tx.sqlSubscription.delete({ where: { id: row.id } });
      return { result: undefined };
    },
  );
  const next =
    row.mode === 'CAPTURE'
      ? 'The capture reconciler removes the divert, the queue and its address settings from every node on its next pass.'
      : 'The sampler stops browsing the queue.';
  return { id: row.id, dryRun: input.dryRun, next };
}

/** The addresses a capture tap feeds on a cluster (what the request-reply correlator hears without sampling). */
export async function capturedAddresses(prisma: PrismaClient, clusterId: string): Promise<string[]> {
  const rows = await prisma.sqlSubscription.findMany({
    where: { clusterId, mode: 'CAPTURE', state: 'ACTIVE' },
    select: { address: true },
  });
  return [...new Set(rows.map((row) => row.address))];
}
