// The plan as the API shows it: per node (the canary first) its steps and hazards, the nodes that could not be read,
// how many POSTs each read took, and whether this exact plan needs (and has) a second person's approval. The writes
// themselves stay on the server: a real run computes the plan again and must find the same hash.
import type { ConfigRuntime } from '../config-runtime.ts';
import { approvalOf } from '../apply/apply-guards.ts';
import { planCluster } from './plan-cluster.ts';

export async function planView(runtime: ConfigRuntime, clusterId: string) {
  const plan = await planCluster(runtime, clusterId);
  const approval = await approvalOf(runtime.prisma, runtime.settings, clusterId, plan.hash);
  return {
    revision: plan.revision,
    hash: plan.hash,
    nodes: plan.nodes.map((node, index) => ({
      nodeId: node.nodeId,
      nodeName: node.nodeName,
      canary: index === 0,
      steps: node.steps.map((step) => ({
        id: step.id,
        kind: step.kind,
        key: step.key,
        action: step.action,
        summary: step.summary,
        fields: step.fields.map((field) => ({ ...field })),
        hazardIds: [...step.hazardIds],
      })),
      hazards: node.hazards.map((hazard) => ({ ...hazard })),
    })),
    unread: plan.unread.map((node) => ({
      nodeId: node.nodeId,
      nodeName: node.nodeName,
      message: node.failure.message,
      advice: node.failure.advice,
    })),
    postsPerNode: plan.postsPerNode,
    approval,
  };
}
