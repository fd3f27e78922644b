// A broker command's answer (the clusters module's command result) as the write tools show it: the outcome, the
// counts the bulk cap compares, and each node's line; plus what to do next after a preview.
import { asRow, asRows, pick } from './project.ts';

export function commandView(answer: unknown, next?: string): Record<string, unknown> {
  const result = asRow(answer);
  return {
    ...pick(result, ['action', 'outcome', 'dryRun', 'affectedCount', 'appliedCount', 'cap', 'auditId']),
    nodes: asRows(result.nodes).map((node) => ({
      ...pick(node, ['nodeName', 'outcome', 'estimate', 'count']),
      ...(node.failure ? { failure: asRow(node.failure).message ?? node.failure } : {}),
    })),
    ...(result.dryRun === true && next ? { next } : {}),
  };
}
