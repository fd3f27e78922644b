// Inputs of the address and connection operations; each answers the broker command's result.
import { z } from 'zod';

const dryRun = z.boolean().default(false).describe('Check per node and audit, change nothing');
const name = z.string().min(1).max(1000);

export const createAddressInput = z.object({
  clusterId: z.uuid(),
  name,
  routingTypes: z
    .array(z.enum(['ANYCAST', 'MULTICAST']))
    .min(1)
    .max(2),
  dryRun,
});

export const deleteAddressInput = z.object({
  clusterId: z.uuid(),
  address: name,
  force: z
    .boolean()
    .default(false)
    .describe('Delete its queues (and their messages) too; without it the broker refuses an address that has queues'),
  dryRun,
});

export const closeConnectionInput = z.object({
  clusterId: z.uuid(),
  connectionId: z.string().min(1).max(500),
  nodeId: z.uuid().describe('The node that issued the connection id (its rows carry it)'),
  dryRun,
});
