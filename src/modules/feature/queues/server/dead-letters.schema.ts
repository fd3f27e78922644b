// Inputs and outputs of the fleet's dead letters: every dead-letter and expiry queue of the visible clusters with
// what its brokers hold now (depth, oldest message, the original addresses its messages died on), and a redrive of
// many of them, whole or by original address, as one broker command.
import { z } from 'zod';
import { listQuerySchema, listResultSchema } from '@/modules/kernel/core/index.ts';
import { commandResultSchema } from '@/modules/platform/commands/index.ts';
import { DEAD_LETTER_SORT_FIELDS } from '@/modules/platform/scrape/read/index.ts';
import { deadLetterSettingsSchema } from './queues.schema.ts';

/** Original addresses shown per queue, most messages first. */
export const TOP_ORIGINAL_ADDRESSES = 10;

export const listDeadLettersInput = listQuerySchema(DEAD_LETTER_SORT_FIELDS, '-messageCount').extend({
  cluster: z.uuid().optional().describe('Only this cluster (its id)'),
});

const deadLetterRowSchema = z.object({
  clusterId: z.string(),
  clusterName: z.string(),
  address: z.string(),
  queueName: z.string(),
  routingType: z.string(),
  kind: z.enum(['dead-letter', 'expiry']).nullable(),
  messageCount: z.number().describe('The cluster total as the scrape last read it'),
  scrapedAt: z.string(),
  liveCount: z
    .number()
    .nullable()
    .describe('Counted now over the serving nodes that answered (countMessages); null when none answered'),
  oldestMessageAt: z.string().nullable().describe('When the oldest message was put on the queue, on any node'),
  originalAddresses: z
    .array(z.object({ address: z.string(), count: z.number() }))
    .describe(
      `The addresses its messages died on (_AMQ_ORIG_ADDRESS), summed over the nodes, the ${TOP_ORIGINAL_ADDRESSES} with most messages; "null" for messages without one`,
    ),
  originalAddressCount: z.number().int().describe('How many distinct original addresses there are in all'),
  complete: z.boolean().describe('Every serving node of the cluster answered: the live numbers are whole'),
});

export const listDeadLettersOutput = listResultSchema(deadLetterRowSchema).extend({
  fetchedAt: z.string().describe('When the brokers were asked'),
  unreadClusters: z
    .array(z.object({ clusterId: z.string(), clusterName: z.string(), deadLetterSettings: deadLetterSettingsSchema }))
    .describe('Visible clusters whose last address-settings read failed or never happened: their marks may be missing'),
  nodeFailures: z
    .array(
      z.object({
        clusterId: z.string(),
        clusterName: z.string(),
        nodeName: z.string(),
        kind: z.string(),
        message: z.string(),
      }),
    )
    .describe('Serving nodes that did not answer the live count of this page'),
});

const redriveItemSchema = z.object({
  queueName: z.string().min(1).max(1000).describe('A dead-letter or expiry queue of the cluster'),
  originalAddress: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe('Only the messages that died on this address (_AMQ_ORIG_ADDRESS); absent: every message'),
});

export const redriveInput = z.object({
  clusterId: z.uuid(),
  items: z.array(redriveItemSchema).min(1).max(500),
  dryRun: z.boolean().default(false).describe('Count per node and audit, change nothing'),
  override: z.boolean().default(false).describe('Go ahead although the count is over safety.bulk-cap'),
});

export const redriveOutput = commandResultSchema.extend({
  items: z
    .array(
      z.object({
        queueName: z.string(),
        originalAddress: z.string().nullable(),
        estimate: z.number().nullable().describe('Messages it would send back, over the nodes that answered'),
        redriven: z.number().nullable().describe('Messages sent back (null on a dry run)'),
        errors: z.array(z.string()).describe('Nodes where this item failed, with the reason'),
      }),
    )
    .describe('Each item, in the order given (duplicates merged)'),
});
