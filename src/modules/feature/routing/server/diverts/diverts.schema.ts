// Inputs and outputs of the diverts list and of divert create and remove; a write answers the broker command's
// result.
import { z } from 'zod';
import { listQuerySchema, listResultSchema } from '@/modules/kernel/core/index.ts';

/** Names reach the broker inside JSON and object names: control characters are refused before anything is sent. */
const brokerName = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `the ${what} must not be empty`)
    .max(1000)
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    .refine((text) => !/[\u0000-\u001f\u007f-\u009f]/.test(text), `the ${what} must not hold control characters`);

const dryRun = z.boolean().default(false).describe('Check per node and audit, change nothing');

const DIVERT_SORT_FIELDS = ['name', 'address', 'forwardingAddress', 'presence'] as const;

export const listDivertsInput = listQuerySchema(DIVERT_SORT_FIELDS, 'name').extend({
  clusterId: z.uuid(),
  clear: z
    .enum(['true', 'false'])
    .optional()
    .describe('Show names, addresses and filters in clear (needs message:clear on the cluster; audited as VIEW_CLEAR)'),
});

export const createDivertInput = z.object({
  clusterId: z.uuid(),
  name: brokerName('divert name'),
  address: brokerName('source address').describe('The address whose messages the divert takes'),
  forwardingAddress: brokerName('forwarding address').describe('Where the divert sends them'),
  exclusive: z
    .boolean()
    .default(false)
    .describe('Exclusive: the message goes only to the forwarding address; otherwise a copy goes there'),
  filter: z
    .string()
    .trim()
    .max(4000)
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    .refine((text) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text), 'must not hold control characters')
    .nullable()
    .default(null)
    .describe('A JMS selector; only matching messages are diverted (none or empty: all)'),
  routingType: z
    .enum(['STRIP', 'PASS', 'ANYCAST', 'MULTICAST'])
    .default('STRIP')
    .describe('The routing type of what it forwards: STRIP none, PASS the original’s, or the one named'),
  dryRun,
});

export const removeDivertInput = z.object({
  clusterId: z.uuid(),
  divert: brokerName('divert name'),
  dryRun,
});

const nodeRef = z.object({ nodeId: z.string(), nodeName: z.string() });

const divertRowSchema = z.object({
  name: z.string(),
  address: z.string(),
  forwardingAddress: z.string(),
  exclusive: z.boolean(),
  filter: z.string().nullable(),
  routingType: z.enum(['STRIP', 'PASS', 'ANYCAST', 'MULTICAST']),
  transformerClassName: z.string().nullable(),
  presentOn: z.array(nodeRef).describe('The nodes that have it (the facts above are of the first by name)'),
  missingOn: z.array(nodeRef).describe('The nodes read that lack it: a divert on some nodes only is a defect'),
  differs: z.array(z.string()).describe('Fields whose value differs between the nodes that have it'),
});

export const listDivertsOutput = listResultSchema(divertRowSchema).extend({
  readAt: z.string().describe('When the nodes were read'),
  nodes: z.array(nodeRef).describe('The nodes read'),
  failures: z
    .array(nodeRef.extend({ kind: z.string(), message: z.string(), advice: z.string() }))
    .describe('Nodes that could not be read: their diverts are unknown, not missing'),
});

export type DivertRow = z.infer<typeof divertRowSchema>;
export type DivertSortField = (typeof DIVERT_SORT_FIELDS)[number];
