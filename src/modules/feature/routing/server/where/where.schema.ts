// Input and output of "where would this message go?": the address, the routing type, properties a selector can name
// and the header fields broker filters read; the answer per node with what it cannot know, and where nodes disagree.
import { z } from 'zod';
import { nodeFailureSchema } from '@/modules/platform/commands/index.ts';
import { KEYWORDS } from '../../model/selector/selector-lexer.ts';
import { WHERE_NOTE_KINDS, WHERE_OUTCOMES } from '../../model/where/where-types.ts';

const ADDRESS_MAX = 255;
const MAX_PROPERTIES = 64;
const NAME_MAX = 128;
const STRING_VALUE_MAX = 1024;
const HEADER_TEXT_MAX = 255;
// A name a selector can write without quotes (artemis-selector's ID token) and that is no keyword.
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

const propertyName = z
  .string()
  .max(NAME_MAX, `A property name is at most ${String(NAME_MAX)} characters`)
  .regex(IDENTIFIER, 'A property name is a selector identifier: a letter, _ or $, then letters, digits, _ or $')
  .refine((name) => !KEYWORDS.has(name.toUpperCase()), 'A property name cannot be a selector keyword (AND, NULL, …)');

const propertyValue = z.union([
  z.string().max(STRING_VALUE_MAX, `A property value is at most ${String(STRING_VALUE_MAX)} characters`),
  z.number(),
  z.boolean(),
  z.null(),
]);

const headerText = z.string().max(HEADER_TEXT_MAX);
const epochMillis = z.number().int().min(0);

export const whereInput = z
  .object({
    clusterId: z.uuid(),
    address: z
      .string()
      .trim()
      .min(1, 'The address names at least one character')
      .max(ADDRESS_MAX, `An address is at most ${String(ADDRESS_MAX)} characters`)
      .refine((address) => !CONTROL.test(address), 'An address holds no control characters')
      .describe('The address sent to; `address::queue` names one queue (a fully qualified queue name)'),
    routingType: z
      .enum(['ANYCAST', 'MULTICAST'])
      .optional()
      .describe('The routing type the producer sends with; leave it out for a producer that sends without one'),
    properties: z
      .record(propertyName, propertyValue)
      .refine((properties) => Object.keys(properties).length <= MAX_PROPERTIES, {
        message: `At most ${String(MAX_PROPERTIES)} properties`,
      })
      .default({})
      .describe('Message properties as a selector reads them: text, a number, true/false, or null'),
    headers: z
      .object({
        priority: z.number().int().min(0).max(9).optional().describe('AMQPriority / JMSPriority; 4 when left out'),
        durable: z.boolean().optional().describe('AMQDurable / JMSDeliveryMode; not known when left out'),
        type: headerText.optional().describe('JMSType'),
        correlationId: headerText.optional().describe('JMSCorrelationID'),
        messageId: headerText.optional().describe('AMQUserID / JMSMessageID; not known when left out'),
        groupId: headerText.optional().describe('AMQGroupID / JMSXGroupID'),
        userId: headerText.optional().describe('JMSXUserID'),
        timestamp: epochMillis.optional().describe('AMQTimestamp, ms since the epoch; not known when left out'),
        expiration: epochMillis.optional().describe('AMQExpiration, ms since the epoch; 0 (never) when left out'),
      })
      .strict()
      .default({}),
  })
  .strict();

/** Arrays as the model hands them out (readonly). */
const list = <T extends z.ZodType>(item: T) => z.array(item).readonly();

const note = z.object({
  kind: z.enum(WHERE_NOTE_KINDS).describe('What the note is about'),
  text: z.string(),
  itemId: z.string().optional().describe('The routing-graph item it is about'),
});

const receivingQueue = z.object({
  itemId: z.string(),
  name: z.string(),
  address: z.string(),
  routingType: z.enum(['ANYCAST', 'MULTICAST']),
  via: z.enum(['address', 'divert', 'dead-letter']),
  share: z.enum(['every', 'one-of']).describe('one-of: one queue of its group gets each message, in turn'),
  group: z.string(),
  certain: z.boolean().describe('False when a filter on the way read something not known here'),
});

const divert = z.object({
  itemId: z.string(),
  name: z.string(),
  address: z.string(),
  forwardingAddress: z.string(),
  exclusive: z.boolean(),
  routingType: z.enum(['STRIP', 'PASS', 'ANYCAST', 'MULTICAST']),
  transformerClassName: z.string().nullable(),
});

const nodeAnswer = z.object({
  nodeId: z.string(),
  nodeName: z.string(),
  outcome: z.enum(WHERE_OUTCOMES),
  receivingQueues: list(receivingQueue),
  path: list(z.string()).describe('Routing-graph edge ids travelled'),
  items: list(z.string()).describe('Routing-graph item ids travelled'),
  diverted: list(divert),
  notes: list(note),
  unknowns: list(note).describe('What the answer cannot know'),
});

export const whereOutput = z.object({
  address: z.string(),
  nodes: list(nodeAnswer),
  agree: z.boolean().describe('Every node answered routes the message alike'),
  differences: list(z.object({ text: z.string(), nodeIds: list(z.string()) })),
  highlighted: list(z.string()).describe('Item and edge ids travelled on any node, for the graph'),
  notes: list(note),
  readAt: z.string().describe('When the brokers were read (shared for routing.cache-ttl)'),
  failures: z
    .array(z.object({ nodeId: z.string(), nodeName: z.string(), failure: nodeFailureSchema }))
    .describe('Nodes that could not be read: not part of the answer'),
});
