// Phase 6 of the broker command sequence: the answer. A dry run finishes its audit row with the preview and answers
// WOULD_APPLY per node, having written nothing. A run is summed up from its nodes (SUCCEEDED, PARTIAL, FAILED), its
// audit row finished with every node's outcome, and answered; when every node failed the answer is 502
// `broker-command-failed` (after the signal phase: the failure is in the finished row). Nothing anywhere to act on
// (no node has the queue) is done, with every node saying so.
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { auditDetail } from './audit.ts';
import type { BrokerCommand, CommandAudit, CommandResult, NodeResult } from './command-types.ts';

/** What the run did, from its nodes. */
export interface RunSummary {
  readonly applied: readonly NodeResult[];
  readonly failed: readonly NodeResult[];
  /** FAILED here also when nothing was applied and nothing failed (every node NOT_PRESENT): see `finishRun`. */
  readonly outcome: 'SUCCEEDED' | 'PARTIAL' | 'FAILED';
  readonly appliedCount: number;
}

interface Counts {
  readonly affectedCount: number;
  readonly cap: number | null;
}

export async function finishDryRun(
  audit: CommandAudit,
  command: Pick<BrokerCommand, 'action'>,
  run: Counts & { readonly preview: NodeResult[]; readonly skipped: readonly string[] },
): Promise<CommandResult> {
  await audit.finish({ outcome: 'SUCCEEDED', nodeDetail: auditDetail(run.preview, run.skipped) });
  return {
    auditId: audit.id,
    action: command.action,
    dryRun: true,
    outcome: 'WOULD_APPLY',
    affectedCount: run.affectedCount,
    appliedCount: 0,
    cap: run.cap,
    nodes: run.preview,
  };
}

export function summarise(nodes: readonly NodeResult[]): RunSummary {
  const applied = nodes.filter((node) => node.outcome === 'APPLIED');
  const failed = nodes.filter((node) => node.outcome === 'FAILED');
  const outcome = failed.length === 0 && applied.length > 0 ? 'SUCCEEDED' : applied.length > 0 ? 'PARTIAL' : 'FAILED';
  return { applied, failed, outcome, appliedCount: applied.reduce((sum, node) => sum + (node.count ?? 0), 0) };
}

/** The audit row finished with every node's outcome (a run with nothing to act on anywhere SUCCEEDED). */
export async function finishRun(
  audit: CommandAudit,
  nodes: readonly NodeResult[],
  skipped: readonly string[],
  summary: RunSummary,
): Promise<void> {
  const { outcome, failed } = summary;
  await audit.finish({
    outcome: outcome === 'FAILED' && failed.length === 0 ? 'SUCCEEDED' : outcome,
    nodeDetail: auditDetail(nodes, skipped),
    ...(failed.length > 0
      ? { error: failed.map((node) => `${node.nodeName}: ${node.failure?.message ?? 'failed'}`).join('; ') }
      : {}),
  });
}

/** The run's answer; throws 502 when no node did it and at least one failed. */
export function answerOf(
  auditId: string,
  command: Pick<BrokerCommand, 'action'>,
  run: Counts & { readonly nodes: NodeResult[]; readonly summary: RunSummary },
): CommandResult {
  const { applied, failed, outcome, appliedCount } = run.summary;
  if (applied.length === 0 && failed.length > 0) {
    throw new ProblemError({
      type: 'broker-command-failed',
      title: 'No node did it',
      status: 502,
      detail:
        `Every node failed: ${failed.map((node) => `${node.nodeName}: ${node.failure?.message ?? ''}`).join('; ')}. ${failed[0]?.failure?.advice ?? ''}`.trim(),
      nodes: run.nodes,
      configSnippet: failed[0]?.failure?.configSnippet ?? null,
      auditId,
    });
  }
  return {
    auditId,
    action: command.action,
    dryRun: false,
    outcome: outcome === 'FAILED' ? 'SUCCEEDED' : outcome,
    affectedCount: run.affectedCount,
    appliedCount,
    cap: run.cap,
    nodes: run.nodes,
  };
}
