import { describe, expect, it } from 'vitest';
import { affectedCountOf, previewOf } from './estimate.ts';

const view = (name: string) => ({ nodeId: `id-${name}`, nodeName: name, logicalNode: `logical-${name}` });
const failure = { kind: 'unreachable', message: 'connection refused', advice: 'Check the URL.', configSnippet: null };

describe('the estimate phase', () => {
  it('adds up what every node would affect, a node with nothing to act on or a failed estimate counting 0', () => {
    expect(affectedCountOf([])).toBe(0);
    expect(affectedCountOf([{ estimate: 40 }, { estimate: undefined }, { estimate: 2 }])).toBe(42);
  });

  it('previews each node: WOULD_APPLY with its count, NOT_PRESENT when it has nothing, FAILED with why', () => {
    const preview = previewOf([
      { view: view('a'), estimate: 40, failure: null },
      { view: view('b'), estimate: 0, failure: null },
      { view: view('c'), estimate: undefined, failure: null },
      { view: view('d'), estimate: undefined, failure },
    ]);
    expect(preview).toEqual([
      { ...view('a'), outcome: 'WOULD_APPLY', estimate: 40, count: null, failure: null },
      // Zero is something to act on (a purge of an empty queue still runs): only undefined is NOT_PRESENT.
      { ...view('b'), outcome: 'WOULD_APPLY', estimate: 0, count: null, failure: null },
      { ...view('c'), outcome: 'NOT_PRESENT', estimate: null, count: null, failure: null },
      { ...view('d'), outcome: 'FAILED', estimate: null, count: null, failure },
    ]);
  });
});
