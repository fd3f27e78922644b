// One step on one node, through the broker command sequence (audit row committed before the call, the node's
// outcome, the `config` signal after the commit). A bridge's password is opened from the vault inside the write and
// goes nowhere else: the audit row names the step, never the write's arguments.
import { ProblemError, type RequestContext } from '@/modules/kernel/core/index.ts';
import { runBrokerCommand } from '@/modules/platform/commands/index.ts';
import type { ConfigRuntime } from '../config-runtime.ts';
import type { ConfigWrite } from '@/modules/platform/broker/index.ts';
import type { ConfigDocument } from '../model/document.ts';
import type { PlanStep } from '../plan/index.ts';
import { openBridgePassword } from '../store/secrets.ts';

export interface StepOutcome {
  readonly stepId: string;
  readonly outcome: 'APPLIED' | 'FAILED';
  readonly auditId: string | null;
  readonly error: string | null;
}

async function withPassword(
  runtime: ConfigRuntime,
  clusterId: string,
  document: ConfigDocument,
  write: ConfigWrite,
): Promise<ConfigWrite> {
  if (write.op !== 'createBridge') return write;
  const ref = document.bridges.find((bridge) => bridge.name === write.bridge.name)?.passwordRef;
  if (!ref) return write;
  return { ...write, bridge: { ...write.bridge, password: await openBridgePassword(runtime.prisma, clusterId, ref) } };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function runStep(
  runtime: ConfigRuntime,
  request: RequestContext,
  context: {
    clusterId: string;
    nodeId: string;
    runId: string;
    revision: number;
    planHash: string;
    document: ConfigDocument;
  },
  step: PlanStep,
): Promise<StepOutcome> {
  try {
    const result = await runBrokerCommand(runtime, request, {
      clusterId: context.clusterId,
      nodeId: context.nodeId,
      action: `config.${step.kind}.${step.action}`,
      target: step.key,
      parameters: {
        step: step.id,
        summary: step.summary,
        run: context.runId,
        revision: context.revision,
        plan: context.planHash,
      },
      dryRun: false,
      capped: false,
      topic: 'config',
      destinations: step.destinations,
      estimate: () => Promise.resolve(1),
      apply: async (node) => {
        await node.writes.config.apply(
          node.client,
          await withPassword(runtime, context.clusterId, context.document, step.write),
        );
        return { count: 1 };
      },
    });
    const failed = result.nodes.find((node) => node.outcome === 'FAILED');
    if (failed || result.outcome !== 'SUCCEEDED')
      return {
        stepId: step.id,
        outcome: 'FAILED',
        auditId: result.auditId,
        error: failed?.failure?.message ?? result.outcome,
      };
    return { stepId: step.id, outcome: 'APPLIED', auditId: result.auditId, error: null };
  } catch (error) {
    const auditId =
      error instanceof ProblemError && typeof error.problem.auditId === 'string' ? error.problem.auditId : null;
    return { stepId: step.id, outcome: 'FAILED', auditId, error: messageOf(error) };
  }
}
