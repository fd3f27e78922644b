// Inputs and outputs of the resources API: the five live-through lists (q, sort, page and their filters), one
// connection with everything on it, one address in detail, and the facts of each serving node. Every answer says
// when its data was read from the brokers and how old it is, and names each node that failed with its reason.
import { z } from 'zod';
import { listQuerySchema, listResultSchema } from '@/modules/kernel/core/index.ts';
import {
  ADDRESS_FILTERS,
  CONNECTION_FILTERS,
  CONSUMER_FILTERS,
  PRODUCER_FILTERS,
  SESSION_FILTERS,
  sortFieldsOf,
  type ResourceKind,
} from './resource-kinds.ts';

const FILTER_HELP: Record<string, string> = {
  queue: 'Only rows of this queue (exact name)',
  address: 'Only rows of this address (exact name)',
  connection: 'Only rows on this connection (its id)',
  session: 'Only rows of this session (its id)',
  remoteAddress: 'Only rows whose client address contains this (a host, or host:port)',
  node: 'Only rows served by this node (its id)',
  slow: 'Only consumers marked slow (true) or not (false)',
  protocol: 'Only connections of this protocol (CORE, AMQP, OPENWIRE, MQTT, STOMP)',
  paging: 'Only addresses that page (true) or do not (false)',
  internal: 'Include internal addresses (notifications, store-and-forward); hidden unless true',
  routingType: 'Only addresses with this routing type (ANYCAST or MULTICAST)',
};

/** Names, filters, client ids and users are masked by the content policy unless a holder of message:clear asks. */
const clear = z
  .enum(['true', 'false'])
  .optional()
  .describe(
    'Show names, filters, client ids and users in clear (needs message:clear on the cluster; audited as VIEW_CLEAR)',
  );

function listInput<const Filter extends string>(kind: ResourceKind, defaultSort: string, filters: readonly Filter[]) {
  const shape = Object.fromEntries(
    filters.map((filter) => [
      filter,
      z
        .string()
        .trim()
        .max(500)
        .optional()
        .describe(FILTER_HELP[filter] ?? filter),
    ]),
  ) as Record<Filter, z.ZodOptional<z.ZodString>>;
  return listQuerySchema(sortFieldsOf(kind), defaultSort).extend({ clusterId: z.uuid(), clear, ...shape });
}

export const consumersInput = listInput('consumers', 'queue', CONSUMER_FILTERS);
export const producersInput = listInput('producers', 'address', PRODUCER_FILTERS);
export const sessionsInput = listInput('sessions', '-createdAt', SESSION_FILTERS);
export const connectionsInput = listInput('connections', '-createdAt', CONNECTION_FILTERS);
export const addressesInput = listInput('addresses', 'name', ADDRESS_FILTERS);

const nodeTag = {
  key: z.string().describe('Unique across the cluster: <nodeId>/<id>'),
  nodeId: z.string().describe('The node that served the row'),
  nodeName: z.string(),
  logicalNode: z.string().describe('The NodeID a primary shares with its backup'),
};
const time = z.string().nullable().describe('ISO 8601; null when the broker gave none');

const failureSchema = z.object({
  kind: z.string().describe('unreachable, tls, auth-failed, forbidden, not-found, timeout or broker-error'),
  message: z.string(),
  advice: z.string(),
  configSnippet: z.string().nullable().describe('Broker configuration that would make the call succeed'),
});

const nodeOutcomeSchema = z.object({
  nodeId: z.string(),
  nodeName: z.string(),
  logicalNode: z.string(),
  ok: z.boolean(),
  rows: z.number().int().describe('Rows this node gave'),
  total: z.number().int().describe('Rows this node holds'),
  truncated: z.boolean().describe('The node holds more than resources.max-rows-per-node'),
  failure: failureSchema.nullable(),
});

const freshness = {
  fetchedAt: z.string().describe('When the data was read from the brokers (shared for resources.cache-ttl)'),
  ageMs: z.number().int(),
};

function listOutput<Row extends z.ZodType>(row: Row) {
  return listResultSchema(row).extend({ ...freshness, nodes: z.array(nodeOutcomeSchema) });
}

const consumerSchema = z.object({
  ...nodeTag,
  id: z.string(),
  queue: z.string(),
  address: z.string(),
  routingType: z.string(),
  sessionId: z.string(),
  connectionId: z.string().nullable(),
  clientId: z.string().nullable(),
  user: z.string().nullable(),
  protocol: z.string(),
  remoteAddress: z.string().describe('The client’s address as the broker sees it (host:port)'),
  localAddress: z.string(),
  filter: z.string().nullable(),
  delivering: z.number().describe('Messages delivered and not yet acknowledged (in flight)'),
  delivered: z.number(),
  acknowledged: z.number(),
  createdAt: time,
  lastDeliveredAt: time,
  lastAcknowledgedAt: time,
  status: z.string().describe('OK, or Orphaned when its connection is gone'),
  slow: z.boolean().describe('Messages in flight and nothing acknowledged for resources.slow-consumer-after'),
});
export const consumersOutput = listOutput(consumerSchema);

const producerSchema = z.object({
  ...nodeTag,
  id: z.string(),
  name: z.string(),
  address: z.string().nullable(),
  sessionId: z.string(),
  connectionId: z.string().nullable(),
  clientId: z.string().nullable(),
  user: z.string().nullable(),
  protocol: z.string(),
  remoteAddress: z.string(),
  sent: z.number(),
  sentBytes: z.number(),
  createdAt: time,
});
export const producersOutput = listOutput(producerSchema);

const sessionSchema = z.object({
  ...nodeTag,
  id: z.string(),
  connectionId: z.string(),
  clientId: z.string().nullable(),
  user: z.string().nullable(),
  consumerCount: z.number(),
  producerCount: z.number(),
  createdAt: time,
});
export const sessionsOutput = listOutput(sessionSchema);

const connectionSchema = z.object({
  ...nodeTag,
  id: z.string(),
  protocol: z.string(),
  remoteAddress: z.string(),
  localAddress: z.string(),
  clientId: z.string().nullable(),
  users: z.array(z.string()),
  sessionCount: z.number(),
  createdAt: time,
});
export const connectionsOutput = listOutput(connectionSchema);

export const connectionInput = z.object({
  clusterId: z.uuid(),
  connectionId: z.string().trim().min(1).max(500),
  nodeId: z.string().trim().max(100).optional().describe('The node, when two nodes have a connection of this id'),
  clear,
});
export const connectionOutput = z.object({
  connection: connectionSchema,
  sessions: z.array(sessionSchema),
  consumers: z.array(consumerSchema),
  producers: z.array(producerSchema),
  ...freshness,
});

const addressSchema = z.object({
  ...nodeTag,
  name: z.string(),
  routingTypes: z.array(z.string()),
  queueCount: z.number(),
  internal: z.boolean(),
  temporary: z.boolean(),
  autoCreated: z.boolean(),
  paused: z.boolean(),
  messageCount: z.number(),
  routed: z.number(),
  unrouted: z.number(),
  sizeBytes: z.number().describe('Memory the address holds (bytes), against its max-size-bytes'),
  limitPercent: z.number().describe('addressSize against max-size-bytes, in percent'),
  paging: z.boolean(),
  pages: z.number(),
});
export const addressesOutput = listOutput(addressSchema);

export const addressInput = z.object({ clusterId: z.uuid(), address: z.string().trim().min(1).max(500), clear });
export const addressOutput = z.object({
  name: z.string(),
  nodes: z.array(
    addressSchema.extend({
      bindings: z.array(
        z.object({
          queue: z.string(),
          routingType: z.string(),
          filter: z.string().nullable(),
          durable: z.boolean(),
          messageCount: z.number(),
          consumerCount: z.number(),
        }),
      ),
      settings: z.record(z.string(), z.unknown()).describe('Address settings in effect on this node (camelCase)'),
    }),
  ),
  failedNodes: z.array(nodeOutcomeSchema),
  fetchedAt: z.string(),
});

const warningSchema = z.object({
  level: z.enum(['warning', 'danger']),
  code: z.enum(['memory', 'disk', 'paging', 'full', 'near-full']),
  message: z.string(),
});

const factsSchema = z.object({
  nodeId: z.string(),
  nodeName: z.string(),
  logicalNode: z.string(),
  ok: z.literal(true),
  failure: z.null(),
  version: z.string().nullable(),
  uptimeMs: z.number().nullable(),
  journalType: z.string().nullable(),
  persistenceEnabled: z.boolean().nullable(),
  memory: z.object({
    usedBytes: z.number().nullable(),
    maxBytes: z.number().nullable().describe('global-max-size'),
    percent: z.number().nullable(),
  }),
  disk: z.object({
    usedPercent: z.number().nullable().describe('Disk store used, in percent'),
    maxPercent: z.number().nullable().describe('max-disk-usage: producers block beyond it'),
  }),
  connections: z.number().nullable(),
  sessions: z.number().nullable(),
  consumers: z.number().nullable(),
  addressCount: z.number().nullable(),
  queueCount: z.number().nullable(),
  pagingAddresses: z.array(
    z.object({ name: z.string(), sizeBytes: z.number(), pages: z.number(), limitPercent: z.number() }),
  ),
  fullAddresses: z.array(
    z.object({
      name: z.string(),
      limitPercent: z.number(),
      policy: z.string().nullable().describe('address-full-policy: BLOCK, FAIL, DROP or PAGE'),
    }),
  ),
  warnings: z.array(warningSchema),
});

export const factsInput = z.object({
  clusterId: z.uuid(),
  nodeId: z.string().trim().max(100).optional().describe('Only this node'),
});
export const factsOutput = z.object({
  nodes: z.array(
    z.union([
      factsSchema,
      z.object({
        nodeId: z.string(),
        nodeName: z.string(),
        logicalNode: z.string(),
        ok: z.literal(false),
        failure: failureSchema,
      }),
    ]),
  ),
  ...freshness,
});
