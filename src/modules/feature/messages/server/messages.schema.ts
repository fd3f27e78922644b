// Inputs and outputs of browse and send. A message's body travels as base64 with what it is; properties keep their
// AMQP type (propertyTypes) so `int` 5 and `long` 5 stay apart.
import { z } from 'zod';
import { commandResultSchema } from '@/modules/platform/commands/index.ts';

const clearFlag = z
  .enum(['true', 'false'])
  .optional()
  .describe('Show non-credential values in clear (needs message:clear; audited as VIEW_CLEAR)');

export const browseInput = z.object({
  clusterId: z.uuid(),
  queue: z.string().min(1).max(1000).describe('The queue to browse'),
  nodeId: z.uuid().optional().describe('The node whose copy of the queue is read (default: the first serving node)'),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(1_000).default(50),
  filter: z.string().max(4000).optional().describe('A JMS selector (served over the management channel)'),
  clear: clearFlag,
});

const redactionSchema = z.object({ location: z.string(), dataClass: z.string(), action: z.string(), by: z.string() });

const messageViewSchema = z.object({
  messageId: z.string(),
  position: z.number().nullable().describe('0-based place in the queue (native channel)'),
  headers: z.record(z.string(), z.unknown()),
  properties: z.record(z.string(), z.unknown()),
  propertyTypes: z.record(z.string(), z.string()),
  body: z.object({
    kind: z.enum(['empty', 'text', 'json', 'xml', 'binary', 'withheld']),
    encoding: z.literal('base64'),
    base64: z.string().nullable().describe('Null when the content policy withheld the body'),
    sizeBytes: z.number(),
    contentType: z.string().nullable(),
    withheldReason: z.string().nullable(),
  }),
  bodyTruncated: z.boolean().describe('The broker cut the body or a property (management channel)'),
  truncatedFields: z.array(z.string()),
  redactions: z.array(redactionSchema),
});

export const browseOutput = z.object({
  channel: z.enum(['native', 'management']),
  channelReason: z.string().nullable().describe('Why the management channel served it'),
  nodeId: z.string(),
  nodeName: z.string(),
  page: z.number(),
  pageSize: z.number(),
  hasMore: z.boolean(),
  messages: z.array(messageViewSchema),
  raiseLimitSnippet: z.string().nullable().describe('broker.xml that lifts the management size limit, when cut'),
  attributeSizeLimit: z.number().nullable(),
  policyVersion: z.number(),
  fetchedAt: z.string(),
});

const SCALAR_TYPES = [
  'null',
  'boolean',
  'byte',
  'short',
  'int',
  'long',
  'ubyte',
  'ushort',
  'uint',
  'ulong',
  'float',
  'double',
  'char',
  'timestamp',
  'uuid',
  'binary',
  'string',
  'symbol',
] as const;

const typedValueSchema = z
  .object({ type: z.enum(SCALAR_TYPES), value: z.union([z.string(), z.number(), z.boolean(), z.null()]) })
  .refine(
    (typed) => {
      if (typed.type === 'null') return typed.value === null;
      if (typed.type === 'boolean') return typeof typed.value === 'boolean';
      if (['string', 'symbol', 'char', 'uuid', 'binary'].includes(typed.type)) return typeof typed.value === 'string';
      if (['long', 'ulong'].includes(typed.type))
        return (
          (typeof typed.value === 'number' && Number.isInteger(typed.value)) || /^-?\d+$/.test(String(typed.value))
        );
      return typeof typed.value === 'number' && Number.isFinite(typed.value);
    },
    { message: 'the value does not fit its type' },
  );

export const sendInput = z.object({
  clusterId: z.uuid(),
  address: z.string().min(1).max(1000).describe('An address, or a queue name (anycast)'),
  routingType: z.enum(['ANYCAST', 'MULTICAST']).optional().describe('Used when the broker auto-creates the address'),
  nodeId: z.uuid().optional().describe('The node to send through (default: the first serving node)'),
  body: z.discriminatedUnion('type', [
    z.object({ type: z.literal('text'), text: z.string().max(10_000_000) }),
    z.object({ type: z.literal('json'), json: z.unknown() }),
    z.object({
      type: z.literal('bytes'),
      base64: z.string().max(14_000_000),
      contentType: z.string().max(200).optional(),
    }),
  ]),
  properties: z.record(z.string().min(1).max(200), typedValueSchema).optional(),
  headers: z
    .object({
      durable: z.boolean().optional(),
      priority: z.number().int().min(0).max(9).optional(),
      ttlMs: z.number().int().min(1).optional(),
      messageId: z.string().max(1000).optional(),
      correlationId: z.string().max(1000).optional(),
      subject: z.string().max(1000).optional(),
      replyTo: z.string().max(1000).optional(),
      groupId: z.string().max(1000).optional(),
    })
    .optional(),
  dryRun: z.boolean().default(false).describe('Validate and audit; send nothing'),
  clear: z.boolean().default(false).describe('Echo non-credential values in clear (needs message:clear)'),
});

export const sendOutput = z.object({
  result: commandResultSchema,
  echo: messageViewSchema.describe('What was sent, through the content policy'),
});
