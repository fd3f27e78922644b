// Inputs and outputs of the node edit and removal.
import { z } from 'zod';
import { amqpUrlSchema, httpUrlSchema } from '../clusters.schema.ts';

const dryRun = z.boolean().default(false).describe('Probe and audit without saving anything');

export const updateNodeInput = z
  .object({
    clusterId: z.string(),
    nodeId: z.string(),
    managementUrl: httpUrlSchema.optional().describe("The node's Jolokia URL; probed before it is saved"),
    amqpUrl: amqpUrlSchema
      .nullable()
      .optional()
      .describe('The AMQP URL; null (or left out with a new management URL) takes it from the topology'),
    dryRun,
  })
  .refine((input) => input.managementUrl !== undefined || input.amqpUrl !== undefined, {
    message: 'give managementUrl, amqpUrl or both',
    path: ['managementUrl'],
  });

export const updateNodeOutput = z.object({
  id: z.string(),
  dryRun: z.boolean(),
  changed: z.array(z.string()),
  node: z.object({
    managementUrl: z.string(),
    amqpUrl: z.string().nullable(),
    role: z.enum(['PRIMARY', 'BACKUP', 'UNKNOWN']),
    brokerName: z.string().nullable(),
    brokerNodeId: z.string().nullable(),
  }),
});

export const removeNodeInput = z.object({ clusterId: z.string(), nodeId: z.string(), dryRun });
