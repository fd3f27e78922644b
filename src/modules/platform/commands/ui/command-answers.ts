// What the operation dialog reads out of a command's answer or refusal: how many nodes would act, a bulk-cap
// refusal's numbers (422 bulk-cap-exceeded), the per-node outcomes of a refusal of every node (502
// broker-command-failed), and the audit log's address of the operation's rows. Pure, so it is tested alone.
import { problemOf } from '@/ui/data/problem.ts';
import type { CommandResult } from './command-nodes.tsx';

/** How many nodes a preview says would act. */
export const acting = (preview: CommandResult | undefined) =>
  preview ? preview.nodes.filter((node) => node.outcome === 'WOULD_APPLY').length : 0;

export const nodesWord = (count: number) => `${count} ${count === 1 ? 'node' : 'nodes'}`;

/** The audit log filtered to the operation's rows on its target (newest first: this one on top). */
export const auditPath = (action: string, target: string) =>
  `/audit?${new URLSearchParams({ action, q: target, dryRun: 'false' }).toString()}`;

/** The numbers a bulk-cap refusal carries (affectedCount, cap), when it is one. */
export function capRefusal(error: unknown): { affectedCount: number; cap: number } | undefined {
  const problem = problemOf(error) as unknown as Record<string, unknown>;
  if (problem.type !== 'bulk-cap-exceeded') return undefined;
  const affectedCount = Number(problem.affectedCount);
  const cap = Number(problem.cap);
  return Number.isFinite(affectedCount) && Number.isFinite(cap) ? { affectedCount, cap } : undefined;
}

/** The per-node outcomes a refusal of every node carries (502 broker-command-failed). */
export function failedNodes(error: unknown): CommandResult['nodes'] | undefined {
  const nodes = (problemOf(error) as unknown as Record<string, unknown>).nodes;
  return Array.isArray(nodes) ? (nodes as CommandResult['nodes']) : undefined;
}
