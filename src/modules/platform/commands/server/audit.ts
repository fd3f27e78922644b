// Phase 2 of the broker command sequence: the audit row, COMMITTED as PENDING before any broker call (ADR 15). No
// transaction is held across a network call; when the row cannot be written this throws 503 and nothing is sent.
// `auditDetail` is what the row keeps of each node, while the command runs and when it is finished.
import { openAudit } from '@/modules/kernel/audit/index.ts';
import { ProblemError, type RequestContext } from '@/modules/kernel/core/index.ts';
import type { CommandTargets } from '@/modules/platform/clusters/index.ts';
import type { BrokerCommand, CommandAudit, CommandRuntime, NodeResult } from './command-types.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('commands');

export async function openCommandAudit(
  runtime: Pick<CommandRuntime, 'prisma'>,
  request: RequestContext,
  command: Pick<BrokerCommand, 'action' | 'target' | 'parameters' | 'dryRun' | 'override'>,
  found: Pick<CommandTargets, 'clusterId' | 'clusterName'>,
): Promise<CommandAudit> {
  return openAudit(runtime.prisma, request, {
    action: command.action,
    target: command.target,
    parameters: { ...command.parameters, ...(command.override ? { override: true } : {}) },
    dryRun: command.dryRun,
    cluster: { id: found.clusterId, name: found.clusterName },
  }).catch((error: unknown) => {
    log.error({ err: error, action: command.action }, 'cannot write the audit row; nothing was sent');
    throw new ProblemError({
      type: 'audit-unavailable',
      title: 'Not done: the audit row could not be written',
      status: 503,
      detail: `Flotilla writes the audit row of every broker command before it calls a broker; it could not, so nothing was sent to any node. Try again when the database accepts writes.`,
    });
  });
}

/** Every node's outcome as the audit row keeps it, and the split-brain members left out. */
export const auditDetail = (nodes: readonly NodeResult[], skipped: readonly string[]) => ({
  nodes: nodes.map(({ nodeName, nodeId, outcome, estimate, count, failure, detail }) => ({
    nodeId,
    nodeName,
    outcome,
    estimate,
    count,
    ...(detail === undefined ? {} : { detail }),
    ...(failure ? { error: `${failure.kind}: ${failure.message}` } : {}),
  })),
  ...(skipped.length > 0 ? { splitBrainSkipped: skipped } : {}),
});
