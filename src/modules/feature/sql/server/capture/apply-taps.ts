// The capture reconciler's apply step, its own audited sequence (spec: "Broker writes, safety and audit"): every
// install, change of bounds and removal of a tap on a node commits its PENDING audit_event row before the broker is called, and
// finishes it with the outcome. The only importer of the broker's tap writes (test/architecture/broker-writes.test.ts).
import type { PrismaClient } from '@/base/db/database.ts';
import { openAudit, recordAuditEvent } from '@/modules/kernel/audit/index.ts';
import { systemContext } from '@/modules/kernel/core/index.ts';
import {
  captureWrites,
  type ManagementClient,
  type TapNames,
  type TapShape,
  type TapSpec,
} from '@/modules/platform/broker/index.ts';

export interface TapNode {
  readonly clusterId: string;
  readonly clusterName: string;
  readonly nodeId: string;
  readonly nodeName: string;
  readonly client: ManagementClient;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function auditedCall(
  prisma: PrismaClient,
  node: TapNode,
  action: 'sql.capture.install' | 'sql.capture.update' | 'sql.capture.remove',
  target: string,
  parameters: Record<string, unknown>,
  call: () => Promise<void>,
): Promise<void> {
  const audit = await openAudit(prisma, systemContext(), {
    action,
    target,
    cluster: { id: node.clusterId, name: node.clusterName },
    parameters: { node: node.nodeName, nodeId: node.nodeId, ...parameters },
  });
  try {
    await call();
  } catch (error) {
    await audit.finish({ outcome: 'FAILED', error: messageOf(error), nodeDetail: { [node.nodeName]: 'FAILED' } });
    throw error;
  }
  await audit.finish({ outcome: 'SUCCEEDED', nodeDetail: { [node.nodeName]: 'APPLIED' } });
}

export function installTap(
  prisma: PrismaClient,
  node: TapNode,
  spec: TapSpec,
  subscriptionId: string,
  divertPresent: boolean,
): Promise<void> {
  return auditedCall(
    prisma,
    node,
    'sql.capture.install',
    spec.queue,
    { subscriptionId, address: spec.sourceAddress, ringSize: spec.ringSize, expiryDelayMs: spec.expiryDelayMs },
    () => captureWrites.installTap(node.client, spec, divertPresent),
  );
}

/** New bounds for a tap in place, from what the node holds (`from`) to the settings' (`spec`). */
export function reshapeTap(
  prisma: PrismaClient,
  node: TapNode,
  spec: TapSpec,
  subscriptionId: string,
  from: TapShape,
): Promise<void> {
  return auditedCall(
    prisma,
    node,
    'sql.capture.update',
    spec.queue,
    {
      subscriptionId,
      address: spec.sourceAddress,
      from,
      to: { ringSize: spec.ringSize, expiryDelayMs: spec.expiryDelayMs },
    },
    () => captureWrites.reshapeTap(node.client, spec),
  );
}

export function removeTap(prisma: PrismaClient, node: TapNode, names: TapNames): Promise<void> {
  return auditedCall(prisma, node, 'sql.capture.remove', names.queue, { divert: names.divert }, () =>
    captureWrites.removeTap(node.client, names),
  );
}

/** A refusal is audited once, when the subscription first fails for it (not at every pass). */
export async function recordRefusal(
  prisma: PrismaClient,
  node: Omit<TapNode, 'client'>,
  target: string,
  subscriptionId: string,
  detail: string,
): Promise<void> {
  await recordAuditEvent(
    prisma,
    systemContext(),
    {
      action: 'sql.capture.install',
      target,
      cluster: { id: node.clusterId, name: node.clusterName },
      parameters: { node: node.nodeName, nodeId: node.nodeId, subscriptionId },
    },
    { outcome: 'REFUSED', error: detail },
  );
}
