// Inputs and outputs of the queues API: the grid row of the spec (key, a cell per node with its stale flag,
// cluster totals, nodesPresent, nodesTotal).
import { z } from 'zod';
import { VERDICTS } from '@/base/consumer-verdicts.ts';
import { listQuerySchema, listResultSchema } from '@/modules/kernel/core/index.ts';
import { QUEUE_GRID_SORT_FIELDS, queueMetricsShape } from '@/modules/platform/scrape/read/index.ts';

const queueCellSchema = z.object({
  nodeId: z.string(),
  brokerName: z.string().nullable(),
  logicalNode: z.string().describe('The shared NodeID of a primary and its backup (or node:<id> while unknown)'),
  serving: z.boolean(),
  counted: z.boolean().describe('This cell is the one its logical node adds to the totals'),
  ...queueMetricsShape,
  paused: z.boolean().nullable(),
  scrapedAt: z.string(),
  stale: z.boolean().describe('The node’s queue numbers are old: kept, flagged, never dropped'),
});

export const queueGridRowSchema = z.object({
  address: z.string(),
  queueName: z.string(),
  routingType: z.string(),
  ...queueMetricsShape,
  nodesPresent: z.number().int().describe('Logical nodes that list the queue'),
  nodesTotal: z.number().int().describe('Logical nodes of the cluster'),
  inRate: z
    .number()
    .nullable()
    .describe('Messages added per second over the serving nodes, smoothed over about a minute'),
  outRate: z.number().nullable().describe('Messages acknowledged per second, smoothed the same way'),
  depthRate: z.number().nullable().describe('Change of the depth per second, smoothed; positive while it grows'),
  growing: z.boolean().describe('The backlog grows (depthRate above 0.01 messages a second)'),
  paused: z.boolean(),
  internal: z.boolean().describe('Artemis’s internal plumbing (store-and-forward) or Flotilla’s own'),
  deadLetter: z
    .boolean()
    .describe(
      'A dead-letter or expiry queue: its address is one the brokers’ own address settings name as a dead-letter or expiry address (never inferred from names; see deadLetterSettings)',
    ),
  deadLetterKind: z
    .enum(['dead-letter', 'expiry'])
    .nullable()
    .describe('Which of the two (dead-letter when an address is both); null for any other queue'),
  stale: z.boolean().describe('Some counted cell is stale'),
  scrapedAt: z.string(),
  cells: z.array(queueCellSchema),
});

const flag = (description: string) => z.enum(['true', 'false']).optional().describe(description);

export const listQueuesInput = listQuerySchema(QUEUE_GRID_SORT_FIELDS, 'queueName').extend({
  clusterId: z.uuid(),
  consumers: z.enum(['with', 'without']).optional().describe('Only queues with consumers, or without any'),
  paused: flag('Only paused queues (true) or only running ones (false)'),
  stale: flag('Only queues whose counted numbers are stale (true) or fresh (false)'),
  deadLetter: flag('Only dead-letter and expiry queues (true) or none of them (false)'),
  growing: flag('Only queues whose backlog grows (true) or does not (false)'),
  internal: flag('Include internal queues (store-and-forward, Flotilla’s own); hidden by default'),
  clear: flag('Show queue and address names in clear (needs message:clear on the cluster; audited as VIEW_CLEAR)'),
  verdict: z
    .string()
    .trim()
    .max(500)
    .regex(/^[A-Z_,]*$/, `must be verdicts separated by commas: ${VERDICTS.join(', ')}`)
    .optional()
    .describe('Only queues whose last consumer-health verdict is one of these (needs the metrics module)'),
});
export type ListQueuesInput = z.infer<typeof listQueuesInput>;
const rates = z.array(z.number().nullable());

/** A grid row with its last 15 minutes: depth and in/out rates over the serving nodes, a value per minute. */
const queueGridListRowSchema = queueGridRowSchema.extend({
  trend: z
    .object({
      depth: rates.describe('Depth per minute, oldest first (null: no sample)'),
      inRate: rates.describe('Messages added per second, per minute'),
      outRate: rates.describe('Messages acknowledged per second, per minute'),
    })
    .nullable()
    .describe('Null while the queue has no samples in the last 15 minutes'),
  verdict: z.string().nullable().describe('The last consumer-health verdict (null: not judged yet, or metrics off)'),
});

export const deadLetterSettingsSchema = z
  .object({
    readAt: z.string().nullable().describe('When the address settings were last read in full; null: never'),
    ok: z.boolean().describe('The last read worked; when false no mark is guessed, and the marks are as of readAt'),
    error: z.string().nullable().describe('Why the last read failed, or that it has not happened yet'),
  })
  .describe('The cluster’s last read of its brokers’ address settings, which the dead-letter marks come from');

export const listQueuesOutput = listResultSchema(queueGridListRowSchema).extend({
  deadLetterSettings: deadLetterSettingsSchema,
});

export const getQueueInput = z.object({
  clusterId: z.uuid(),
  queueName: z.string().min(1).max(1000).describe('The queue’s name (unique within a broker)'),
});
