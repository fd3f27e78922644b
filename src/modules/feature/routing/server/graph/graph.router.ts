// The routing graph of a cluster: every serving node's routing configuration merged (an item a node lacks is marked),
// filtered by an address pattern when one is given, and handed out whole only up to routing.max-graph-items — beyond
// that the answer carries the counts alone and the screen asks for a filter. Filters leave through the content policy.
import { CLUSTER_NOT_FOUND, moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { liveReadFailed } from '@/modules/platform/clusters/index.ts';
import { buildRoutingGraph, filterRoutingGraph } from '../../model/build-graph.ts';
import type { RoutingGraph } from '../../model/routing-graph.ts';
import { readRoutingViews } from '../live/read-routing.ts';
import { ROUTING_SETTINGS } from '../routing.settings.ts';
import { governGraphFilters } from './govern-graph.ts';
import { graphInput, graphOutput } from './graph.schema.ts';

const procedure = moduleProcedure('routing');

function countsOf(graph: RoutingGraph) {
  const counts = { addresses: 0, queues: 0, diverts: 0, bridges: 0, clusterConnections: 0 };
  const key = {
    address: 'addresses',
    queue: 'queues',
    divert: 'diverts',
    bridge: 'bridges',
    'cluster-connection': 'clusterConnections',
  } as const;
  for (const item of graph.items) counts[key[item.kind]] += 1;
  return counts;
}

/** The graph as the output schema takes it (mutable arrays). */
const answerOf = (graph: RoutingGraph) => ({
  nodes: [...graph.nodes],
  items: graph.items.map((item) => ({
    ...item,
    presentOn: [...item.presentOn],
    missingOn: [...item.missingOn],
    differs: [...item.differs],
  })),
  edges: graph.edges.map((edge) => ({ ...edge, presentOn: [...edge.presentOn], missingOn: [...edge.missingOn] })),
});

export const graphRouter = router({
  graph: procedure({ clusterPermission: 'routing:read' })
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/routing/graph',
        tags: ['routing'],
        summary:
          'The routing graph: addresses, queues, diverts, bridges and cluster connections merged across the serving nodes (an item or edge a node lacks names it), with the dead-letter and expiry routes; optionally filtered by an address pattern',
      },
    })
    .input(graphInput)
    .output(graphOutput)
    .query(async ({ ctx, input }) => {
      const read = await readRoutingViews(ctx.runtime, input.clusterId);
      if (!read) throw new ProblemError(CLUSTER_NOT_FOUND);
      if (read.views.length === 0 && read.failures.length > 0)
        throw await liveReadFailed(ctx.runtime.prisma, input.clusterId, read.failures);
      const whole = buildRoutingGraph(read.views);
      const graph = input.pattern === undefined ? whole : filterRoutingGraph(whole, input.pattern);
      const maxItems = ctx.runtime.settings.integer(ROUTING_SETTINGS.maxGraphItems);
      const tooLarge = graph.items.length > maxItems;
      return {
        graph: tooLarge
          ? { nodes: [...graph.nodes], items: [], edges: [] }
          : answerOf(await governGraphFilters(ctx.runtime, graph)),
        readAt: read.readAt.toISOString(),
        nodes: [
          ...read.views.map((view) => ({ nodeId: view.nodeId, nodeName: view.nodeName, ok: true, failure: null })),
          ...read.failures.map((node) => ({ ...node, ok: false })),
        ],
        counts: countsOf(graph),
        tooLarge,
        maxItems,
      };
    }),
});
