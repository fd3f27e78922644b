// Inputs and outputs of the queues API: the grid row of the spec (key, a cell per node with its stale flag,
// cluster totals, nodesPresent, nodesTotal).
import { z } from 'zod';
import { listQuerySchema, listResultSchema } from '../../../kernel/core/list-query.ts';
import { QUEUE_GRID_SORT_FIELDS } from '../../../platform/scrape/server/queue-grid.ts';
import { queueMetricsShape } from '../../../platform/scrape/server/queue-metrics.schema.ts';

export const queueCellSchema = z.object({
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
  paused: z.boolean(),
  stale: z.boolean().describe('Some counted cell is stale'),
  scrapedAt: z.string(),
  cells: z.array(queueCellSchema),
});

export const listQueuesInput = listQuerySchema(QUEUE_GRID_SORT_FIELDS, 'queueName').extend({ clusterId: z.uuid() });
export const listQueuesOutput = listResultSchema(queueGridRowSchema);

export const getQueueInput = z.object({
  clusterId: z.uuid(),
  queueName: z.string().min(1).max(1000).describe('The queue’s name (unique within a broker)'),
});
