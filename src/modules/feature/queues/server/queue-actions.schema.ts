// Inputs and output of the queue operations. Every one takes dryRun; the destructive message operations take
// override (the bulk cap). A filter is a JMS selector evaluated by the broker over the whole queue.
import { z } from 'zod';

const dryRun = z.boolean().default(false).describe('Count per node and audit, change nothing');
const override = z.boolean().default(false).describe('Go ahead although the count is over safety.bulk-cap');
const queueName = z.string().min(1).max(1000);
const filter = z
  .string()
  .max(4000)
  .optional()
  .describe('A JMS selector the broker evaluates over the whole queue; empty or absent: every message');
const messageIds = z
  .array(z.string().regex(/^\d{1,19}$/, 'a broker message id (digits)'))
  .max(10_000)
  .optional()
  .describe('Broker message ids on one node (give nodeId)');
const nodeId = z.uuid().optional().describe('The node that holds the messages (needed with messageIds)');

const queueTarget = { clusterId: z.uuid(), queueName };

export const purgeInput = z.object({ ...queueTarget, dryRun, override });
export const deleteMessagesInput = z.object({ ...queueTarget, filter, messageIds, nodeId, dryRun, override });
export const moveMessagesInput = z.object({
  ...queueTarget,
  filter,
  messageIds,
  nodeId,
  targetQueue: queueName.describe('The queue the messages go to; it must exist in the cluster'),
  dryRun,
  override,
});
export const retryMessagesInput = z.object({
  ...queueTarget,
  messageIds,
  nodeId,
  originalAddress: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe('Only the messages that died on this address (their _AMQ_ORIG_ADDRESS)'),
  dryRun,
  override,
});
export const pauseInput = z.object({
  ...queueTarget,
  persist: z.boolean().default(false).describe('Keep the queue paused across a broker restart'),
  dryRun,
});
export const resumeInput = z.object({ ...queueTarget, dryRun });
export const createQueueInput = z.object({
  clusterId: z.uuid(),
  name: queueName,
  address: z.string().max(1000).optional().describe('Defaults to the queue’s name'),
  routingType: z.enum(['ANYCAST', 'MULTICAST']),
  filter: z.string().max(4000).optional().describe('Only messages matching this selector enter the queue'),
  durable: z.boolean().default(true),
  maxConsumers: z.number().int().min(-1).max(1_000_000).optional().describe('-1: no limit'),
  dryRun,
});
export const deleteQueueInput = z.object({ ...queueTarget, dryRun, override });
