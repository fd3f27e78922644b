// The triage API's shapes: the fleet (one entry per visible cluster), the worst queues across clusters, and the
// fleet-wide queue search.
import { z } from 'zod';
import { listResultSchema, sortSchema } from '@/modules/kernel/core/index.ts';
import { NEEDS_ATTENTION, VERDICTS } from '@/base/consumer-verdicts.ts';

const verdict = z.enum(VERDICTS);
const page = z.coerce.number().int().min(1).default(1).describe('1-based page number');
const pageSize = (max: number, fallback: number) => z.coerce.number().int().min(1).max(max).default(fallback);

export const CLUSTER_HEALTH = ['UP', 'DEGRADED', 'DOWN', 'UNKNOWN'] as const;

/** `health` ascending is the worst first (DOWN, DEGRADED, UNKNOWN, UP). */
export const FLEET_SORT = ['name', 'health', 'backlog', 'deadLetterDepth', 'failingNodes', 'needingAttention'] as const;
/** `severity` is the triage ranking: verdict severity, then backlog growth, then depth. */
const TRIAGE_SORT = [
  'severity',
  'depthChange',
  'depth',
  'inRate',
  'outRate',
  'consumers',
  'queueName',
  'evaluatedAt',
] as const;
/** `relevance`: an exact name first, then A–Z. */
const QUEUE_SEARCH_SORT = ['relevance', 'queueName', 'address', 'messageCount', 'consumerCount'] as const;

const fleetClusterSchema = z.object({
  id: z.string(),
  name: z.string(),
  environment: z.object({ id: z.string(), name: z.string() }).nullable(),
  health: z
    .enum(CLUSTER_HEALTH)
    .describe(
      'DOWN: no node answers; DEGRADED: a node fails, a logical node has no server, a split-brain or a capability lost; UNKNOWN: never polled',
    ),
  problems: z.array(z.string()).describe('What makes it DEGRADED or DOWN, in words'),
  nodeCount: z.number().int(),
  logicalNodeCount: z.number().int(),
  failingNodeCount: z.number().int(),
  splitBrainSince: z.string().nullable(),
  capabilityProblems: z.array(z.string()).describe('Capabilities the ledger reads UNAVAILABLE'),
  lastSuccessAt: z.string().nullable(),
  queues: z
    .object({
      count: z.number().int().describe('Queues, internal ones left out'),
      backlog: z.number().describe('Messages in every queue but dead-letter and expiry ones'),
      deadLetterDepth: z.number().describe('Messages in dead-letter and expiry queues'),
      growing: z.number().int().describe('Queues whose backlog grows'),
      scrapedAt: z.string().nullable().describe('The newest listing counted'),
    })
    .nullable()
    .describe('Null without queue:read on the cluster'),
  verdicts: z
    .object({
      counts: z.record(verdict, z.number().int()),
      worst: verdict.nullable(),
      evaluatedAt: z.string().nullable().describe('When consumer health was last judged'),
    })
    .nullable()
    .describe('Null without metric:read on the cluster'),
});

export const fleetInput = z.object({
  q: z.string().trim().max(200).optional().describe('Part of a cluster’s or its environment’s name'),
  sort: sortSchema(FLEET_SORT, 'name'),
});

export const fleetOutput = z.object({
  clusters: z.array(fleetClusterSchema),
  totals: z.object({
    clusters: z.number().int(),
    down: z.number().int(),
    degraded: z.number().int(),
    backlog: z.number(),
    deadLetterDepth: z.number(),
    needingAttention: z
      .number()
      .int()
      .describe(`Queues whose verdict needs someone (${NEEDS_ATTENTION.join(', ')})`),
  }),
});

export const triageInput = z.object({
  verdict: z
    .string()
    .trim()
    .max(500)
    .regex(/^[A-Z_,]*$/, `must be verdicts separated by commas: ${VERDICTS.join(', ')}`)
    .optional()
    .describe('Only these verdicts (default: every verdict that needs attention)'),
  sort: sortSchema(TRIAGE_SORT, 'severity'),
  page,
  pageSize: pageSize(500, 50),
});

export const triageOutput = listResultSchema(
  z.object({
    clusterId: z.string(),
    clusterName: z.string(),
    address: z.string(),
    queueName: z.string(),
    routingType: z.string(),
    verdict,
    depth: z.number(),
    depthChange: z.number().nullable().describe('How much the backlog grew over the window'),
    inRate: z.number().nullable(),
    outRate: z.number().nullable(),
    consumers: z.number().int(),
    delivering: z.number(),
    evaluatedAt: z.string(),
  }),
);

export const searchQueuesInput = z.object({
  q: z.string().trim().min(1, 'say what to look for').max(200).describe('Part of a queue or address name, any case'),
  sort: sortSchema(QUEUE_SEARCH_SORT, 'relevance'),
  page,
  pageSize: pageSize(100, 20),
});

export const searchQueuesOutput = listResultSchema(
  z.object({
    clusterId: z.string(),
    clusterName: z.string(),
    address: z.string(),
    queueName: z.string(),
    routingType: z.string(),
    messageCount: z.number(),
    consumerCount: z.number(),
  }),
);
