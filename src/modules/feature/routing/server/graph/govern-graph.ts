// The graph's filters leave through the content policy, as the diverts list's and the consumers' do: a queue's,
// divert's or bridge's filter is written by whoever created it and may name a customer, a card or an account.
// Only items with a filter are governed, so a graph of thousands of unfiltered queues costs nothing here.
import { governFields } from '@/modules/platform/governance/index.ts';
import type { RoutingGraph, RoutingItem } from '../../model/routing-graph.ts';

type GovernanceRuntime = Parameters<typeof governFields>[0];

export async function governGraphFilters(runtime: GovernanceRuntime, graph: RoutingGraph): Promise<RoutingGraph> {
  const filtered = graph.items.filter((item) => typeof item.facts.filter === 'string');
  if (filtered.length === 0) return graph;
  const { rows } = await governFields(
    runtime,
    filtered.map((item) => ({ id: item.id, filter: item.facts.filter as string })),
    ['filter'],
    { clear: false },
  );
  const shown = new Map(rows.map((row) => [row.id, row.filter]));
  const items = graph.items.map((item): RoutingItem => {
    const filter = shown.get(item.id);
    return filter === undefined || filter === item.facts.filter ? item : { ...item, facts: { ...item.facts, filter } };
  });
  return { ...graph, items };
}
