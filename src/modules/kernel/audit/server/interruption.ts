// What an INTERRUPTED audit row says (ADR 35): the work's process ended before it finished, so only what it reported
// before is known. The per-node detail it recorded stays on the row; this text names it in one line.

export const INTERRUPTED_TEXT =
  'the process running it ended before it finished; the broker may have applied all, part or none of it; ' +
  'per-node detail below is what it reported';

interface ReportedNode {
  readonly nodeName?: unknown;
  readonly outcome?: unknown;
  readonly estimate?: unknown;
  readonly count?: unknown;
}

function nodeLine(node: ReportedNode): string {
  const name = typeof node.nodeName === 'string' ? node.nodeName : 'a node';
  const estimate = typeof node.estimate === 'number' ? ` (${node.estimate} to act on)` : '';
  switch (node.outcome) {
    case 'APPLIED':
      return `${name} applied${typeof node.count === 'number' ? ` ${node.count}` : ''}`;
    case 'FAILED':
      return `${name} failed`;
    case 'NOT_PRESENT':
      return `${name} has no such queue`;
    default:
      return `${name} no report${estimate}`;
  }
}

/** The row's error text from the node detail the work had recorded (a command's `{ nodes: [...] }`, or nothing). */
export function interruptionText(nodeDetail: unknown): string {
  const nodes =
    typeof nodeDetail === 'object' && nodeDetail !== null && Array.isArray((nodeDetail as { nodes?: unknown }).nodes)
      ? ((nodeDetail as { nodes: unknown[] }).nodes.filter(
          (node) => typeof node === 'object' && node !== null,
        ) as ReportedNode[])
      : [];
  if (nodes.length === 0) return `${INTERRUPTED_TEXT} (no node reported before it ended)`;
  return `${INTERRUPTED_TEXT}: ${nodes.map(nodeLine).join('; ')}`;
}
