// Phase 5 of the broker command sequence: the writes. Every node with something to act on gets its `apply`, each
// under its node's limiter; one node's failure is recorded and never stops the others. Each node's result lands on
// the PENDING audit row as it comes, so a long run shows its progress in the audit log. Only this file hands out
// the broker's write operations (test/architecture/broker-writes.test.ts).
import { brokerWrites, sendMessage } from '@/modules/platform/broker/index.ts';
import { nodeFailureOf } from '@/modules/platform/clusters/index.ts';
import { auditDetail } from './audit.ts';
import {
  nodeOf,
  type BrokerCommand,
  type CommandAudit,
  type CommandNode,
  type CommandNodeView,
  type Estimated,
  type NodeResult,
} from './command-types.ts';

interface FanOut {
  readonly audit: CommandAudit;
  /** The nodes as the preview left them: the audit row's progress starts from here. */
  readonly preview: readonly NodeResult[];
  readonly skipped: readonly string[];
  readonly reservedAddresses: readonly string[];
  /** The command's checked destinations: the only addresses `send` reaches. */
  readonly destinations: readonly string[];
}

function commandNodeOf(view: CommandNodeView, run: FanOut): CommandNode {
  return {
    ...view,
    writes: brokerWrites,
    reservedAddresses: run.reservedAddresses,
    send: async (message) => {
      // Only to an address checked before the audit row (see `destinations`).
      if (!run.destinations.includes(message.address))
        throw new Error(`send to ${message.address}: not among the command's checked destinations`);
      await sendMessage(view.native(), message);
    },
  };
}

export function fanOut<Detail>(
  estimated: readonly Estimated[],
  command: Pick<BrokerCommand<Detail>, 'apply'>,
  run: FanOut,
): Promise<NodeResult[]> {
  const sofar = new Map(run.preview.map((node) => [node.nodeId, node]));
  const reportProgress = async (node: NodeResult) => {
    sofar.set(node.nodeId, node);
    await run.audit.progress(auditDetail([...sofar.values()], run.skipped)).catch(() => undefined);
    return node;
  };
  return Promise.all(
    estimated.map(async ({ view, estimate, failure }): Promise<NodeResult> => {
      if (failure || estimate === undefined) {
        return { ...nodeOf(view), outcome: failure ? 'FAILED' : 'NOT_PRESENT', estimate: null, count: null, failure };
      }
      try {
        const { count, detail } = await command.apply(commandNodeOf(view, run), estimate);
        return await reportProgress({
          ...nodeOf(view),
          outcome: 'APPLIED',
          estimate,
          count,
          failure: null,
          ...(detail === undefined ? {} : { detail }),
        });
      } catch (error) {
        return reportProgress({
          ...nodeOf(view),
          outcome: 'FAILED',
          estimate,
          count: null,
          failure: nodeFailureOf(error, view.client.nodeKey),
        });
      }
    }),
  );
}
