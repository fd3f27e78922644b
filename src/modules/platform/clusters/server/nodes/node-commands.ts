// One node of a registered cluster changed in place: given its URLs (a node left not-confirmed by discovery, a broker
// that moved), or removed (a node that no longer exists). An edit is probed before it is saved: the broker at the new
// management URL must answer with the cluster's credentials, be a member of the cluster's topology, be the broker the
// node was registered as (same NodeID when one was known) and be no other stored node. Both are audited with the
// cluster's id and name and honour the dry run; the caller publishes ClusterChanged after commit.
import type { BlockList } from 'node:net';
import type { z } from 'zod';
import type { PrismaClient } from '@/base/db/database.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import { ProblemError, type RequestContext } from '@/modules/kernel/core/index.ts';
import { CLUSTER_NOT_FOUND } from '@/modules/kernel/access/index.ts';
import type { ManagementLimits } from '@/modules/platform/broker/index.ts';
import type { KeyRing } from '@/modules/platform/governance/index.ts';
import { openPassword } from '../credentials/password-cipher.ts';
import { openTls } from '../credentials/cluster-tls.ts';
import { openCredentials } from '../credentials/credentials-unreadable.ts';
import { discoverNodes } from '../registration/discovery.ts';
import { withProbeClients } from '../registration/probe-clients.ts';
import type { RegistrationProbeNode } from '../registration/registration-check.ts';
import type { removeNodeInput, updateNodeInput } from './nodes.schema.ts';

const NODE_NOT_FOUND = {
  type: 'node-not-found',
  title: 'Node not found',
  status: 404,
  detail: 'This cluster has no such node.',
} as const;

function nodeCheckFailed(label: string, reasons: readonly string[], probed?: RegistrationProbeNode): ProblemError {
  return new ProblemError({
    type: 'node-check-failed',
    title: 'Node check failed',
    status: 422,
    detail: `Node ${label}: ${reasons.join(' ')} Nothing was saved.`,
    errors: reasons.map((message) => ({ field: 'managementUrl', message })),
    ...(probed ? { probed: { managementUrl: probed.managementUrl, amqpUrl: probed.amqpUrl, role: probed.role } } : {}),
  });
}

async function loadNode(prisma: PrismaClient, clusterId: string, nodeId: string) {
  const cluster = await prisma.cluster.findUnique({ where: { id: clusterId.toLowerCase() } });
  if (!cluster) throw new ProblemError(CLUSTER_NOT_FOUND);
  const nodes = await prisma.clusterNode.findMany({
    where: { clusterId: cluster.id },
    orderBy: [{ lastSuccessAt: { sort: 'desc', nulls: 'last' } }, { createdAt: 'asc' }],
  });
  const node = nodes.find((candidate) => candidate.id === nodeId.toLowerCase());
  if (!node) throw new ProblemError(NODE_NOT_FOUND);
  return { cluster, node, others: nodes.filter((other) => other.id !== node.id) };
}

/** Why the probed broker cannot be this node, in words; empty when it can. */
function refusals(
  probed: RegistrationProbeNode,
  conflicts: readonly { managementUrls: readonly string[]; message: string }[],
  expectedNodeId: string | null,
  otherUrls: ReadonlySet<string>,
): string[] {
  if (otherUrls.has(probed.managementUrl)) return [`${probed.managementUrl} is another node of this cluster.`];
  if (!probed.state) {
    return [
      `${probed.managementUrl} did not answer as a broker${probed.error ? ` (${probed.error.kind}: ${probed.error.message})` : ''}.`,
    ];
  }
  const reasons = conflicts
    .filter((conflict) => conflict.managementUrls.includes(probed.managementUrl))
    .map((conflict) => conflict.message);
  if (expectedNodeId && probed.state.nodeId !== expectedNodeId) {
    reasons.push(
      `${probed.managementUrl} reports NodeID ${probed.state.nodeId}; this node was registered as NodeID ${expectedNodeId}. Remove the node and rediscover instead if the broker was replaced.`,
    );
  }
  return reasons;
}

export async function updateNode(
  prisma: PrismaClient,
  request: RequestContext,
  keys: KeyRing,
  probeLimits: { limits: ManagementLimits; allowedNetworks: BlockList },
  input: z.infer<typeof updateNodeInput>,
) {
  const { cluster, node, others } = await loadNode(prisma, input.clusterId, input.nodeId);
  const managementUrl = input.managementUrl ?? node.managementUrl;
  // An AMQP URL left out is found again from the topology unless the management URL stays the same.
  const amqpUrl = input.amqpUrl !== undefined ? input.amqpUrl : input.managementUrl ? null : node.amqpUrl;
  const label = node.brokerName ?? node.managementUrl;
  const access = {
    credentials: { username: cluster.username, password: openCredentials(() => openPassword(keys, cluster)) },
    tls: openCredentials(() => openTls(keys, cluster)),
    ...probeLimits,
  };
  // The other stored nodes come first, so the topology is read from the cluster as registered, not from the new URL.
  const given = [
    ...others.map((other) => ({ managementUrl: other.managementUrl, amqpUrl: other.amqpUrl })),
    { managementUrl, amqpUrl },
  ];
  const discovery = await withProbeClients(access, (clientFor) => discoverNodes(clientFor, given));
  const probed = discovery.nodes[others.length];
  if (!probed) throw nodeCheckFailed(label, ['it could not be probed.']);
  const reasons = refusals(
    probed,
    discovery.conflicts,
    node.brokerNodeId,
    new Set(others.map((other) => other.managementUrl)),
  );
  if (reasons.length > 0) throw nodeCheckFailed(label, reasons, probed);
  const state = probed.state;
  const changed = [
    probed.managementUrl !== node.managementUrl ? 'managementUrl' : undefined,
    probed.amqpUrl !== node.amqpUrl ? 'amqpUrl' : undefined,
  ].filter((field): field is string => field !== undefined);
  await audited(
    prisma,
    request,
    {
      action: 'cluster.node.update',
      target: `${cluster.name}/${label}`,
      parameters: {
        nodeId: node.id,
        before: { managementUrl: node.managementUrl, amqpUrl: node.amqpUrl },
        after: { managementUrl: probed.managementUrl, amqpUrl: probed.amqpUrl },
        brokerNodeId: state?.nodeId,
      },
      dryRun: input.dryRun,
      cluster: { id: cluster.id, name: cluster.name },
    },
    async (tx) => {
      if (input.dryRun) return { result: undefined };
      await tx.clusterNode.update({
        where: { id: node.id },
        data: {
          managementUrl: probed.managementUrl,
          amqpUrl: probed.amqpUrl,
          urlSource: 'given',
          brokerName: state?.name ?? null,
          brokerNodeId: state?.nodeId || null,
          role: probed.role,
          // The probe's read is the node's first success under its new URLs; the old failure no longer applies.
          lastSuccessAt: new Date(),
          lastFailureAt: null,
          lastError: null,
        },
      });
      return { result: undefined };
    },
  );
  return {
    id: node.id,
    dryRun: input.dryRun,
    changed,
    node: {
      managementUrl: probed.managementUrl,
      amqpUrl: probed.amqpUrl,
      role: probed.role,
      brokerName: state?.name ?? null,
      brokerNodeId: state?.nodeId || null,
    },
  };
}

export async function removeNode(
  prisma: PrismaClient,
  request: RequestContext,
  input: z.infer<typeof removeNodeInput>,
) {
  const { cluster, node, others } = await loadNode(prisma, input.clusterId, input.nodeId);
  if (others.length === 0) {
    throw new ProblemError({
      type: 'last-node',
      title: 'Last node',
      status: 409,
      detail: `${node.brokerName ?? node.managementUrl} is the cluster's only node: remove the cluster instead.`,
    });
  }
  await audited(
    prisma,
    request,
    {
      action: 'cluster.node.remove',
      target: `${cluster.name}/${node.brokerName ?? node.managementUrl}`,
      parameters: { nodeId: node.id, managementUrl: node.managementUrl, amqpUrl: node.amqpUrl },
      dryRun: input.dryRun,
      cluster: { id: cluster.id, name: cluster.name },
    },
    async (tx) => {
      if (!input.dryRun) await tx.clusterNode.delete({ where: { id: node.id } });
      return { result: undefined };
    },
  );
  return { id: node.id, dryRun: input.dryRun, changed: input.dryRun ? [] : ['removed'] };
}
