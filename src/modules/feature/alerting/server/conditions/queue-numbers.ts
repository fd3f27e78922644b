// Pure arithmetic the queue conditions share (unit-tested in conditions.test.ts).

export type ComparisonOp = '>' | '>=' | '<' | '<=';

export const compare = (value: number, op: ComparisonOp, threshold: number) =>
  op === '>'
    ? value > threshold
    : op === '>='
      ? value >= threshold
      : op === '<'
        ? value < threshold
        : value <= threshold;

/** How much a queue's depth rose over the window (negative: it fell); null with fewer than two samples in it. */
export function growthOf(queue: {
  readonly samples: number;
  readonly depthAtStart: number | null;
  readonly depthAtEnd: number | null;
}): number | null {
  if (queue.samples < 2 || queue.depthAtStart === null || queue.depthAtEnd === null) return null;
  return queue.depthAtEnd - queue.depthAtStart;
}
