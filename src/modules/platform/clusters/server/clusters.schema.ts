// Inputs and outputs of the clusters and environments API. Passwords go in, never out.
import { z } from 'zod';
import { listQuerySchema, listResultSchema } from '@/modules/kernel/core/index.ts';

const dryRun = z.boolean().default(false).describe('Probe or validate and audit without saving anything');
export const httpUrlSchema = z
  .url()
  .trim()
  .refine((url) => /^https?:\/\//.test(url), 'must be an http(s) Jolokia URL, e.g. http://host:8161/console/jolokia');
export const amqpUrlSchema = z
  .string()
  .trim()
  .refine((url) => /^amqps?:\/\/[^/]+:\d+\/?$/.test(url), 'must look like amqp://host:61616');

const givenNodeSchema = z.object({
  managementUrl: httpUrlSchema,
  amqpUrl: amqpUrlSchema.nullish().describe('Also maps this node to its topology connector, overriding the URL guess'),
});

const tlsSchema = z
  .object({
    ca: z.string().max(100_000).optional().describe('PEM of the CA that signed the brokers’ certificates'),
    clientCertificate: z
      .string()
      .max(100_000)
      .optional()
      .describe('PEM client certificate, for brokers that demand one (mutual TLS on management and AMQP)'),
    clientKey: z
      .string()
      .max(100_000)
      .optional()
      .describe(
        'PEM private key of the client certificate (unencrypted); stored encrypted like the password, never returned',
      ),
  })
  .strict();

const credentialsSchema = z.object({
  username: z.string().min(1).max(200),
  password: z.string().min(1).max(1000),
});

const clusterName = z.string().trim().min(1).max(100);
const environmentRef = z.string().trim().min(1).max(100).describe('An environment name or id; a new name creates it');

export const registerInput = z.object({
  name: clusterName,
  environment: environmentRef,
  description: z.string().max(2000).default(''),
  nodes: z.array(givenNodeSchema).min(1).max(64).describe('The seed first; the others are found from its topology'),
  credentials: credentialsSchema,
  tls: tlsSchema.nullish(),
  dryRun,
});

const checkResultSchema = z.object({
  id: z.string(),
  title: z.string(),
  blocking: z.boolean(),
  status: z.enum(['ok', 'warn', 'fail']),
  detail: z.string(),
  advice: z.string().optional(),
  snippet: z.string().optional(),
});

const urlSourceMethod = z
  .enum(['given', 'seed-port', 'seed-offset', 'not-confirmed'])
  .describe(
    "How the management URL was found: given at registration; the seed's port on the node's host or the seed's port offset, each confirmed by the broker's NodeID; or not confirmed (no candidate answered as the node)",
  );

const probedNodeSchema = z.object({
  managementUrl: z.string(),
  amqpUrl: z.string().nullable(),
  discovered: z.boolean(),
  urlSource: z.object({ method: urlSourceMethod, detail: z.string() }),
  role: z.enum(['PRIMARY', 'BACKUP', 'UNKNOWN']),
  brokerName: z.string().nullable(),
  brokerNodeId: z.string().nullable(),
  version: z.string().nullable(),
  active: z.boolean().nullable(),
  error: z.string().nullable(),
});

export const registerOutput = z.object({
  clusterId: z.string().nullable().describe('null on a dry run'),
  dryRun: z.boolean(),
  checks: z.array(checkResultSchema),
  nodes: z.array(probedNodeSchema),
  logicalNodeCount: z.number().int(),
});

const capabilityValue = z.enum(['AVAILABLE', 'UNAVAILABLE', 'UNKNOWN']);

export const clusterRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  environment: z.object({ id: z.string(), name: z.string() }).nullable(),
  username: z.string(),
  nodeCount: z.number().int(),
  logicalNodeCount: z.number().int(),
  /** Nodes whose last poll failed after their last success, or that were never polled successfully. */
  failingNodeCount: z.number().int(),
  /** Logical nodes polled for HA where no member reads Active (from the scrape side's tier A). */
  unservedLogicalNodeCount: z.number().int(),
  lastSuccessAt: z.string().nullable(),
  capabilities: z.record(z.string(), capabilityValue),
  createdAt: z.string(),
});

export const listClustersInput = listQuerySchema(['name', 'environment', 'createdAt'], 'name').extend({
  environment: z.string().optional().describe('Only clusters of this environment (name or id)'),
});
export const listClustersOutput = listResultSchema(clusterRowSchema);

export const clusterIdInput = z.object({ clusterId: z.string() });

export const clusterDetailSchema = clusterRowSchema.extend({
  tls: z
    .object({
      ca: z.boolean().describe('A CA is configured'),
      clientCertificate: z
        .object({ subject: z.string(), notAfter: z.string() })
        .nullable()
        .describe('The client certificate presented to the brokers (its key is never returned)'),
    })
    .nullable(),
  /** Set by the HA side (tier A) when two nodes of one pair are active; false until it reports. */
  splitBrain: z.boolean(),
  updatedAt: z.string(),
});

export const nodeSchema = z.object({
  id: z.string(),
  managementUrl: z.string(),
  amqpUrl: z.string().nullable(),
  brokerName: z.string().nullable(),
  brokerNodeId: z.string().nullable(),
  role: z.string(),
  discovered: z.boolean(),
  urlSource: urlSourceMethod,
  /** Index of the logical node (nodes sharing a NodeID), stable within one answer. */
  logicalNode: z.string(),
  active: z.boolean().nullable(),
  started: z.boolean().nullable(),
  backup: z.boolean().nullable(),
  replicaSync: z.boolean().nullable(),
  /** Serves its logical node: follows the polled Active (never the role), kept by the HA reconciler. */
  serving: z.boolean(),
  haPolledAt: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  lastFailureAt: z.string().nullable(),
  lastError: z.string().nullable(),
});

export const nodesOutput = z.object({ items: z.array(nodeSchema), total: z.number().int() });

const capabilitySchema = z.object({
  capability: z.string(),
  value: capabilityValue,
  detail: z.string(),
  snippet: z.string().nullable(),
  checkedAt: z.string().describe('When the verdict was last confirmed'),
  confirmedBy: z
    .enum(['registration', 'rediscovery', 'subscription', 'scrape', 'recheck', 'command'])
    .describe(
      "How: the registration probe, a rediscovery, the worker's native subscription, the scrape's management calls, the scheduled recheck or a broker command's real run",
    ),
});
export const capabilitiesOutput = z.object({ items: z.array(capabilitySchema), total: z.number().int() });

export const updateClusterInput = z.object({
  clusterId: z.string(),
  name: clusterName.optional(),
  environment: environmentRef.optional(),
  description: z.string().max(2000).optional(),
  credentials: credentialsSchema.optional().describe('New credentials: re-encrypted under the current key'),
  tls: tlsSchema.nullish(),
  dryRun,
});

export const mutationOutput = z.object({ id: z.string(), dryRun: z.boolean(), changed: z.array(z.string()) });

/** A change to one cluster that takes nothing but its id: remove, rediscover. */
export const clusterActionInput = z.object({ clusterId: z.string(), dryRun });

export const environmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  clusterCount: z.number().int(),
  createdAt: z.string(),
});
export const listEnvironmentsInput = listQuerySchema(['name', 'createdAt'], 'name');
export const listEnvironmentsOutput = listResultSchema(environmentSchema);
export const createEnvironmentInput = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().max(2000).default(''),
  dryRun,
});
export const updateEnvironmentInput = z.object({
  environmentId: z.string(),
  name: z.string().trim().min(1).max(100).optional(),
  description: z.string().max(2000).optional(),
  dryRun,
});
export const deleteEnvironmentInput = z.object({ environmentId: z.string(), dryRun });
