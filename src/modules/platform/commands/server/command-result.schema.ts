// The answer of every broker command (the sequence's CommandResult), shared by every module that runs one.
import { z } from 'zod';

/** A node's classified failure (clusters' NodeFailure), as every per-node answer carries it. */
export const nodeFailureSchema = z.object({
  kind: z.string(),
  message: z.string(),
  advice: z.string(),
  configSnippet: z.string().nullable(),
});

const nodeResultSchema = z.object({
  nodeId: z.string(),
  nodeName: z.string(),
  logicalNode: z.string(),
  outcome: z.enum(['WOULD_APPLY', 'APPLIED', 'FAILED', 'NOT_PRESENT']),
  estimate: z.number().nullable().describe('What the node would affect (its count); null when unknown'),
  count: z.number().nullable().describe('What the node reported doing'),
  detail: z.unknown().optional(),
  failure: nodeFailureSchema.nullable(),
});

export const commandResultSchema = z.object({
  auditId: z.string(),
  action: z.string(),
  dryRun: z.boolean(),
  outcome: z.enum(['WOULD_APPLY', 'SUCCEEDED', 'PARTIAL', 'FAILED']),
  affectedCount: z.number().describe('The sum of the nodes’ estimates: what the bulk cap compares'),
  appliedCount: z.number(),
  cap: z.number().nullable().describe('safety.bulk-cap when the operation is capped'),
  nodes: z.array(nodeResultSchema),
});
