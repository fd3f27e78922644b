// Phase 3 of the broker command sequence: every node's estimate (reads only), so the bulk cap sees the whole blast
// radius. A node whose estimate fails is FAILED and the others carry on; one with nothing to act on (undefined) is
// NOT_PRESENT. The preview is what a dry run answers and what the audit row holds until the fan-out reports.
import { nodeFailureOf } from '@/modules/platform/clusters/index.ts';
import { nodeOf, type BrokerCommand, type CommandNodeView, type Estimated, type NodeResult } from './command-types.ts';

export function estimateNodes(
  views: readonly CommandNodeView[],
  command: Pick<BrokerCommand, 'estimate'>,
): Promise<Estimated[]> {
  return Promise.all(
    views.map(async (view): Promise<Estimated> => {
      try {
        return { view, estimate: await command.estimate(view), failure: null };
      } catch (error) {
        return { view, estimate: undefined, failure: nodeFailureOf(error, view.client.nodeKey) };
      }
    }),
  );
}

/** The sum of the nodes' estimates: what the cap compares. */
export const affectedCountOf = (estimated: readonly Pick<Estimated, 'estimate'>[]) =>
  estimated.reduce((sum, node) => sum + (node.estimate ?? 0), 0);

type NodeEstimate = Omit<Estimated, 'view'> & { readonly view: Parameters<typeof nodeOf>[0] };

/** Each node before anything is written: WOULD_APPLY with its estimate, NOT_PRESENT, or FAILED with why. */
export const previewOf = (estimated: readonly NodeEstimate[]) =>
  estimated.map(({ view, estimate, failure }): NodeResult => ({
    ...nodeOf(view),
    outcome: failure ? 'FAILED' : estimate === undefined ? 'NOT_PRESENT' : 'WOULD_APPLY',
    estimate: estimate ?? null,
    count: null,
    failure,
  }));
