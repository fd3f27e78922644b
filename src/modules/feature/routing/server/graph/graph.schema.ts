// Input and output of the routing graph API: the cluster, an optional address pattern, and the merged graph with each
// node's outcome, the counts of what the (filtered) graph holds, and whether it was too large to hand out.
import { z } from 'zod';
import { nodeFailureSchema } from '@/modules/platform/commands/index.ts';

const PATTERN_MAX = 255;

export const graphInput = z.object({
  clusterId: z.uuid(),
  pattern: z
    .string()
    .trim()
    .min(1, 'An address pattern names at least one character')
    .max(PATTERN_MAX, `An address pattern is at most ${String(PATTERN_MAX)} characters`)
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    .refine((pattern) => !/[\u0000-\u001f\u007f]/.test(pattern), 'An address pattern holds no control characters')
    .optional()
    .describe(
      'An address pattern in the broker’s wildcard syntax (`.` separates words, `*` one word, `#` zero or more): only the addresses it matches, their queues, diverts and bridges, and one hop either side',
    ),
});

const nodeIds = z.array(z.string());
const kinds = ['address', 'queue', 'divert', 'bridge', 'cluster-connection'] as const;
const edgeKinds = ['binds', 'diverts', 'forwards', 'bridges', 'dead-letter', 'expiry', 'balances'] as const;

const itemSchema = z.object({
  id: z.string().describe('<kind>:<name>'),
  kind: z.enum(kinds),
  name: z.string(),
  facts: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
    .describe('The first node’s (by name) facts; message and consumer counts summed over the nodes'),
  presentOn: nodeIds.describe('Ids of the nodes holding it'),
  missingOn: nodeIds.describe('Ids of the nodes lacking it: a routing defect when not empty'),
  differs: z.array(z.string()).describe('Facts whose value differs between the nodes holding it'),
});

const edgeSchema = z.object({
  id: z.string(),
  kind: z.enum(edgeKinds),
  from: z.string(),
  to: z.string(),
  presentOn: nodeIds,
  missingOn: nodeIds,
});

export const graphOutput = z.object({
  graph: z.object({
    nodes: z.array(z.object({ nodeId: z.string(), nodeName: z.string() })),
    items: z.array(itemSchema).describe('Empty when tooLarge'),
    edges: z.array(edgeSchema).describe('Empty when tooLarge'),
  }),
  readAt: z.string().describe('When the brokers were read (shared for routing.cache-ttl)'),
  nodes: z.array(
    z.object({ nodeId: z.string(), nodeName: z.string(), ok: z.boolean(), failure: nodeFailureSchema.nullable() }),
  ),
  counts: z.object({
    addresses: z.number().int(),
    queues: z.number().int(),
    diverts: z.number().int(),
    bridges: z.number().int(),
    clusterConnections: z.number().int(),
  }),
  tooLarge: z
    .boolean()
    .describe('The graph holds more items than routing.max-graph-items: only its counts are given; ask with a pattern'),
  maxItems: z.number().int().describe('routing.max-graph-items'),
});
