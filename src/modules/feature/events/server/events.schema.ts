// The events API's shapes: a stored BrokerEvent as the API, the stream and the screens show it, and the list's
// filters (kind, address, queue, time range) beside q, sort and paging.
import { z } from 'zod';
import { listQuerySchema, listResultSchema } from '@/modules/kernel/core/index.ts';

const EVENT_SORT_FIELDS = ['seq', 'brokerTime'] as const;

const typedValue = z.object({ type: z.string(), value: z.unknown() });

const brokerEventSchema = z.object({
  seq: z.number().int().describe('Position in arrival order; the stream sends it as the event id'),
  clusterId: z.string(),
  nodeId: z.string().describe('The node that emitted it'),
  logicalNode: z.string().describe('The logical node it is attributed to (a primary and its backup share one)'),
  brokerName: z.string().nullable(),
  kind: z.string().describe('The notification type, e.g. CONSUMER_CREATED'),
  address: z.string().nullable(),
  queue: z.string().nullable(),
  consumerId: z.string().nullable(),
  sessionId: z.string().nullable(),
  connectionId: z.string().nullable(),
  remoteAddress: z.string().nullable(),
  user: z.string().nullable(),
  properties: z.record(z.string(), typedValue).describe('Every other notification property with its AMQP type'),
  brokerTime: z.string().describe('When the broker raised it'),
  receivedAt: z.string().describe('When Flotilla received it'),
  redactions: z
    .array(z.object({ location: z.string(), dataClass: z.string(), action: z.string(), by: z.string() }))
    .optional()
    .describe('Values the content policy hid (or showed in clear, marked sensitive), with their class and why'),
});

export type BrokerEventView = z.infer<typeof brokerEventSchema>;

const isoDate = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' });

export const listEventsInput = listQuerySchema(EVENT_SORT_FIELDS, '-seq').extend({
  clusterId: z.string(),
  kind: z
    .string()
    .trim()
    .max(1_000)
    .regex(/^[A-Z_,]*$/, 'must be notification kinds separated by commas, e.g. CONSUMER_CREATED,CONSUMER_CLOSED')
    .optional()
    .describe('Notification kinds separated by commas'),
  address: z.string().trim().max(500).optional().describe('Events of this address (exact)'),
  queue: z.string().trim().max(500).optional().describe('Events of this queue (exact)'),
  from: isoDate.optional().describe('Raised at or after (broker time)'),
  to: isoDate.optional().describe('Raised before (broker time)'),
  seq: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .describe('Only the event at this position (a link to it: the console opens its drawer)'),
  clear: z
    .enum(['true', 'false'])
    .optional()
    .describe('Show non-credential values in clear (needs message:clear on the cluster; audited as VIEW_CLEAR)'),
});

export type ListEventsInput = z.infer<typeof listEventsInput>;

export const listEventsOutput = listResultSchema(brokerEventSchema).extend({
  dropped: z.number().int().describe('Notifications of this cluster the ingest buffer had to drop (it was full)'),
  droppedAt: z.string().nullable().describe('When the last one was dropped'),
  oldestAt: z.string().nullable().describe('When the oldest event still kept was received (retention trims older)'),
  policyVersion: z.number().int().describe('The content policy version the properties were governed with'),
});
