// Inputs and outputs of the SQL console: one query over the live brokers or the message index, in the URL as the
// console keeps it (GET, so a query is a link).
import { z } from 'zod';

export const SQL_MAX_LENGTH = 10_000;

export const queryInput = z.object({
  clusterId: z.uuid(),
  sql: z.string().min(1).max(SQL_MAX_LENGTH).describe('A SELECT of the documented subset (docs/sql.md)'),
  source: z
    .enum(['live', 'index'])
    .default('index')
    .describe('live: browse every serving node now; index: the persisted message_index'),
  clear: z
    .enum(['true', 'false'])
    .optional()
    .describe('Show non-credential values in clear (needs message:clear; audited as VIEW_CLEAR)'),
});

const boundSchema = z.object({
  bound: z.enum(['target-cap', 'scan-cap', 'row-cap', 'timeout']),
  words: z.string().describe('What stopped and what the answer therefore lacks'),
});

const nodeSchema = z.object({
  nodeId: z.string(),
  nodeName: z.string(),
  queues: z.number().describe('Queues of the matched addresses read on this node'),
  posts: z.number().describe('Management POSTs made to this node (one per page, every queue in it)'),
  errors: z.array(z.string()),
});

export const queryOutput = z.object({
  source: z.enum(['live', 'index']),
  columns: z.array(z.string()),
  rows: z.array(z.record(z.string(), z.unknown())),
  scanned: z.number().describe('Messages (live) or index rows (index) examined'),
  bounds: z.array(boundSchema).describe('Every bound reached, in words; empty when the answer is whole'),
  selector: z.string().nullable().describe('The part of the WHERE the brokers evaluated (live source)'),
  residual: z.boolean().describe('Part of the WHERE was evaluated in the service'),
  nodes: z.array(nodeSchema).nullable().describe('Per node, what the live read did'),
  notices: z.array(z.string()).describe('What the source cannot see (sampling gaps, address-scoped capture)'),
  queuesAsOf: z.string().nullable().describe('The queue listing a live read used is from the sweep at this time'),
  elapsedMs: z.number(),
  fetchedAt: z.string(),
});
export type QueryOutput = z.infer<typeof queryOutput>;
