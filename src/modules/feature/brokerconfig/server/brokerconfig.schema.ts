// The brokerconfig API's inputs and outputs: the declared document and its revisions, adoption, recommendations, the
// plan and its apply, approvals, drift, apply runs and bridge credentials.
import { z } from 'zod';
import { configDocument } from './model/document.ts';
import { SECTIONS } from './model/document-diff.ts';

const clusterId = z.uuid();
const dryRun = z.boolean().default(false);
const planHash = z.string().regex(/^[0-9a-f]{64}$/, 'a plan hash is 64 hexadecimal digits');
const secretName = z
  .string()
  .regex(/^[A-Za-z0-9][\w.-]{0,99}$/, 'letters, digits, ".", "_" and "-", at most 100 characters');

export const clusterInput = z.object({ clusterId });

const itemChange = z.object({
  section: z.enum(SECTIONS as [string, ...string[]]),
  key: z.string(),
  change: z.enum(['added', 'removed', 'changed']),
  fields: z.array(z.string()),
});

const counts = z.object(Object.fromEntries(SECTIONS.map((section) => [section, z.number().int()])));

const revisionView = z.object({
  number: z.number().int(),
  document: configDocument,
  comment: z.string(),
  source: z.string().describe('edit, adopt or recommendation'),
  author: z.string(),
  createdAt: z.string(),
});

const driftField = z.object({ field: z.string(), declared: z.unknown(), live: z.unknown() });
const driftRow = z.object({
  nodeId: z.string(),
  nodeName: z.string(),
  kind: z.string(),
  key: z.string(),
  state: z.enum(['IN_SYNC', 'DRIFTED', 'MISSING', 'UNVERIFIABLE']),
  fields: z.array(driftField),
  revision: z.number().int(),
  evaluatedAt: z.string(),
});

export const overviewOutput = z.object({
  revision: revisionView.nullable(),
  drift: z.array(driftRow),
  driftedCount: z.number().int(),
  evaluatedAt: z.string().nullable().describe('When drift was last evaluated (the oldest node)'),
  lastRun: z
    .object({
      id: z.string(),
      status: z.string(),
      revision: z.number().int(),
      startedAt: z.string(),
      actor: z.string(),
      error: z.string().nullable(),
    })
    .nullable(),
  bridgeFieldsVerified: z
    .array(z.string())
    .describe('The bridge fields the broker reports back; the others are applied, never verified'),
});

export const revisionsOutput = z.object({
  items: z.array(revisionView.omit({ document: true }).extend({ counts, changes: z.array(itemChange) })),
});

// A revision's number is a PostgreSQL integer: a larger one is no revision, and must not reach the query (a 500).
export const revisionInput = z.object({ clusterId, number: z.coerce.number().int().min(1).max(2_147_483_647) });
export const revisionOutput = revisionView.extend({ changes: z.array(itemChange) });

export const saveRevisionInput = z.object({
  clusterId,
  document: configDocument,
  comment: z.string().trim().min(1, 'say why, in a few words').max(500),
  baseRevision: z.number().int().min(0).describe('The revision this change started from (0 when none exists)'),
  dryRun,
});
export const saveRevisionOutput = z.object({
  number: z.number().int(),
  dryRun: z.boolean(),
  changes: z.array(itemChange),
});

export const adoptInput = z.object({
  clusterId,
  baseRevision: z.number().int().min(0),
  comment: z.string().trim().max(500).default('Adopted from the live cluster'),
  dryRun,
});
export const adoptOutput = z.object({
  number: z.number().int().nullable(),
  dryRun: z.boolean(),
  document: configDocument,
  notes: z.array(z.string()),
});

export const recommendationsOutput = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      explanation: z.string(),
      prevents: z.string(),
      satisfied: z.boolean(),
      proposal: configDocument.nullable(),
    }),
  ),
});

const hazardView = z.object({
  id: z.string(),
  level: z.enum(['HIGH', 'MEDIUM', 'LOW']),
  code: z.string(),
  kind: z.string(),
  key: z.string(),
  message: z.string(),
  prevents: z.string().optional(),
});
const stepView = z.object({
  id: z.string(),
  kind: z.string(),
  key: z.string(),
  action: z.enum(['create', 'update', 'remove']),
  summary: z.string(),
  fields: z.array(driftField),
  hazardIds: z.array(z.string()),
});
export const planOutput = z.object({
  revision: z.number().int(),
  hash: planHash,
  nodes: z.array(
    z.object({
      nodeId: z.string(),
      nodeName: z.string(),
      canary: z.boolean(),
      steps: z.array(stepView),
      hazards: z.array(hazardView),
    }),
  ),
  unread: z.array(z.object({ nodeId: z.string(), nodeName: z.string(), message: z.string(), advice: z.string() })),
  postsPerNode: z.record(z.string(), z.number().int()),
  approval: z.object({ required: z.boolean(), approvedBy: z.string().nullable() }),
});

export const applyInput = z.object({
  clusterId,
  planHash,
  acknowledge: z.array(z.string().max(500)).max(1_000).default([]).describe('The ids of the High hazards acknowledged'),
  dryRun,
});
const stepOutcome = z.object({
  stepId: z.string(),
  outcome: z.enum(['APPLIED', 'FAILED']),
  auditId: z.string().nullable(),
  error: z.string().nullable(),
});
export const applyOutput = z.object({
  runId: z.string().nullable(),
  auditId: z.string(),
  dryRun: z.boolean(),
  status: z.enum(['WOULD_APPLY', 'SUCCEEDED', 'HALTED']),
  error: z.string().nullable().optional(),
  revision: z.number().int(),
  planHash,
  nodes: z.array(
    z.object({
      nodeId: z.string(),
      nodeName: z.string(),
      outcome: z.enum(['WOULD_APPLY', 'APPLIED', 'UNCHANGED', 'HALTED', 'NOT_REACHED']),
      steps: z.array(stepOutcome),
      readBack: z.string().nullable(),
    }),
  ),
});

export const approveInput = z.object({ clusterId, planHash, dryRun });
export const approveOutput = z.object({ planHash, approvedBy: z.string(), dryRun: z.boolean() });

export const driftOutput = z.object({ items: z.array(driftRow), evaluatedAt: z.string().nullable() });

export const runsOutput = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      revision: z.number().int(),
      planHash: z.string(),
      status: z.string(),
      actor: z.string(),
      approvedBy: z.string().nullable(),
      error: z.string().nullable(),
      startedAt: z.string(),
      finishedAt: z.string().nullable(),
      progress: z.unknown(),
    }),
  ),
});

export const secretsOutput = z.object({
  items: z.array(z.object({ name: z.string(), updatedBy: z.string(), updatedAt: z.string() })),
});
export const putSecretInput = z.object({ clusterId, name: secretName, value: z.string().min(1).max(1_000), dryRun });
export const removeSecretInput = z.object({ clusterId, name: secretName, dryRun });
export const secretChangeOutput = z.object({ name: z.string(), dryRun: z.boolean() });

export const schemaOutput = z.object({ schema: z.record(z.string(), z.unknown()) });
