// The words the divert dialogs build from a broker command's answer: how many nodes would act or did, and how many
// were left alone (a create skips a node that has the divert; a remove, one that lacks it). Pure.
import type { CommandResult } from '@/modules/platform/commands/ui.ts';

type Outcome = CommandResult['nodes'][number]['outcome'];

const countOf = (result: CommandResult, outcome: Outcome) =>
  result.nodes.filter((node) => node.outcome === outcome).length;

const nodeCount = (count: number) => `${String(count)} ${count === 1 ? 'node' : 'nodes'}`;

export const wouldAct = (preview: CommandResult) => nodeCount(countOf(preview, 'WOULD_APPLY'));
export const didAct = (result: CommandResult) => nodeCount(countOf(result, 'APPLIED'));

/** "; 1 node already has it" (create) or "; 1 node lacks it" (remove), or nothing. */
export function leftAlone(result: CommandResult, why: string): string {
  const count = countOf(result, 'NOT_PRESENT');
  return count === 0 ? '' : `; ${nodeCount(count)} ${why}, left alone`;
}
