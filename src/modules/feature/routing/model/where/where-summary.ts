// Where the nodes of a cluster disagree about a message: a queue that receives it on some nodes only, or a node that
// drops or dead-letters what the others route. A producer's node decides, so a difference is a routing defect.
import type { WhereDifference, WhereNodeAnswer } from './where-types.ts';

function names(nodes: readonly WhereNodeAnswer[]): string {
  return nodes.map((node) => node.nodeName).join(', ');
}

export function summarise(nodes: readonly WhereNodeAnswer[]): { agree: boolean; differences: WhereDifference[] } {
  const differences: WhereDifference[] = [];
  const queueNames = [...new Set(nodes.flatMap((node) => node.receivingQueues.map((queue) => queue.name)))].sort();
  for (const queue of queueNames) {
    const receiving = nodes.filter((node) => node.receivingQueues.some((entry) => entry.name === queue));
    const not = nodes.filter((node) => !receiving.includes(node));
    if (not.length > 0)
      differences.push({
        text: `${queue} receives it on ${names(receiving)}, not on ${names(not)}.`,
        nodeIds: not.map((node) => node.nodeId),
      });
  }
  const outcomes = new Map<string, WhereNodeAnswer[]>();
  for (const node of nodes) outcomes.set(node.outcome, [...(outcomes.get(node.outcome) ?? []), node]);
  if (outcomes.size > 1)
    for (const [outcome, group] of outcomes)
      differences.push({ text: `${outcome} on ${names(group)}.`, nodeIds: group.map((node) => node.nodeId) });
  return { agree: differences.length === 0, differences };
}
