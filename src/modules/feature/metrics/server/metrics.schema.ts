// The metrics API's shapes: a queue's series per node over a time range, downsampled on the server.
import { z } from 'zod';
import { listQuerySchema, listResultSchema } from '@/modules/kernel/core/index.ts';
import { VERDICTS } from '@/base/consumer-verdicts.ts';

const isoDate = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' });

const rangeFields = {
  from: isoDate.optional().describe('Start of the range; default `last` seconds before `to`'),
  last: z.coerce
    .number()
    .int()
    .min(60)
    .max(31 * 86_400)
    .default(3_600)
    .describe('Seconds before `to` when `from` is not given (default one hour)'),
  to: isoDate.optional().describe('End of the range; default now'),
  points: z.coerce.number().int().min(10).max(1_000).default(500).describe('Most points per line'),
  step: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400)
    .optional()
    .describe('Bucket width in seconds, instead of `points` (the range may hold at most 1,000 of them)'),
};

const fromBeforeTo = (input: { from?: string; to?: string }) =>
  !input.from || !input.to || Date.parse(input.from) < Date.parse(input.to);

/** The range a series input names, and how many buckets it asks for (`step` wins over `points`). */
export function rangeOf(input: {
  from?: string;
  to?: string;
  last: number;
  points: number;
  step?: number | undefined;
}) {
  const to = input.to ? new Date(input.to) : new Date();
  const from = input.from ? new Date(input.from) : new Date(to.getTime() - input.last * 1_000);
  const points = input.step ? Math.ceil((to.getTime() - from.getTime()) / (input.step * 1_000)) : input.points;
  return { from, to, points };
}

export const clusterSeriesInput = z
  .object({
    clusterId: z.string(),
    nodeId: z.uuid().optional().describe('One node only (default: every node, and the cluster total)'),
    ...rangeFields,
  })
  .refine(fromBeforeTo, { message: 'from must be before to', path: ['from'] });

const totalPointSchema = z.object({
  t: z.string().describe('Start of the bucket'),
  depth: z.number().describe('Messages in the node’s (or cluster’s) queues, internal ones left out'),
  consumers: z.number().describe('Consumers (bucket maximum)'),
  delivering: z.number().describe('Messages in delivery'),
  queues: z.number().describe('Queues (bucket maximum)'),
  inRate: z.number().nullable().describe('Messages added per second over every queue (smoothed cell rates summed)'),
  outRate: z.number().nullable().describe('Messages acknowledged per second over every queue'),
});

export const clusterSeriesOutput = z.object({
  from: z.string(),
  to: z.string(),
  stepMs: z.number().int().describe('Bucket width'),
  nodes: z.array(
    z.object({
      nodeId: z.string(),
      brokerName: z.string().nullable(),
      logicalNode: z.string(),
      points: z.array(totalPointSchema),
    }),
  ),
  total: z.array(totalPointSchema).describe('The cluster total: per bucket, the sum over the nodes with a sample'),
});

export const queueSeriesInput = z
  .object({
    clusterId: z.string(),
    queue: z.string().min(1).max(500).describe('The queue name'),
    ...rangeFields,
  })
  .refine(fromBeforeTo, { message: 'from must be before to', path: ['from'] });

const pointSchema = z.object({
  t: z.string().describe('Start of the bucket'),
  depth: z.number().describe('Messages in the queue (bucket average)'),
  consumers: z.number().describe('Consumers (bucket maximum)'),
  delivering: z.number().describe('Messages in delivery (bucket average)'),
  inRate: z.number().nullable().describe('Messages added per second; a counter reset never gives a negative rate'),
  outRate: z.number().nullable().describe('Messages acknowledged per second'),
  expiredRate: z.number().nullable().describe('Messages expired per second'),
  killedRate: z.number().nullable().describe('Messages dead-lettered or dropped per second'),
});

export const queueSeriesOutput = z.object({
  queue: z.string(),
  from: z.string(),
  to: z.string(),
  stepMs: z.number().int().describe('Bucket width'),
  nodes: z.array(
    z.object({
      nodeId: z.string(),
      brokerName: z.string().nullable(),
      logicalNode: z.string(),
      points: z.array(pointSchema),
    }),
  ),
});

export const consumerHealthInput = listQuerySchema(['severity', 'queueName', 'depth'], 'severity').extend({
  clusterId: z.string(),
  verdict: z
    .string()
    .trim()
    .regex(/^[A-Z_,]*$/, `must be verdicts separated by commas: ${VERDICTS.join(', ')}`)
    .optional()
    .describe('Only these verdicts (separated by commas)'),
  queue: z.string().max(500).optional().describe('Exactly this queue'),
});

const nullableRate = z.number().nullable();

const queueHealthSchema = z.object({
  address: z.string(),
  queueName: z.string(),
  routingType: z.string(),
  verdict: z.enum(VERDICTS),
  evidence: z.object({
    windowMs: z.number(),
    samples: z.number().int().describe('Samples of the busiest serving node in the window'),
    depth: z.number(),
    depthAtStart: nullableRate,
    depthAtEnd: nullableRate,
    inRate: nullableRate.describe('Messages added per second over the window'),
    outRate: nullableRate.describe('Messages acknowledged per second over the window'),
    delivering: z.number(),
    consumers: z.number(),
    paused: z.boolean(),
    stale: z.boolean().describe('Some counted node’s numbers are old'),
    slowConsumer: z
      .object({ at: z.string(), consumerId: z.string().nullable(), node: z.string().nullable() })
      .nullable()
      .describe('The broker’s latest CONSUMER_SLOW for the queue in the window'),
  }),
  advice: z.string(),
});

export const consumerHealthOutput = listResultSchema(queueHealthSchema).extend({
  windowMs: z.number().int(),
  counts: z.record(z.enum(VERDICTS), z.number().int()).describe('Queues per verdict, before the verdict filter'),
});
