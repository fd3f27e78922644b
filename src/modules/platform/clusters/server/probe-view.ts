// The probed nodes as the API shows them (no broker errors' stack, no credentials).
import type { RegistrationProbeNode } from './registration/registration-check.ts';

export function probedNodeView(node: RegistrationProbeNode) {
  return {
    managementUrl: node.managementUrl,
    amqpUrl: node.amqpUrl,
    discovered: node.discovered,
    urlSource: node.urlSource,
    role: node.role,
    brokerName: node.state?.name ?? null,
    brokerNodeId: node.state?.nodeId || null,
    version: node.state?.version ?? null,
    active: node.state?.active ?? null,
    error: node.error ? `${node.error.kind}: ${node.error.message}` : null,
  };
}
