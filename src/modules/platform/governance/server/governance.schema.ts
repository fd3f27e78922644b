// Inputs and outputs of the governance API: the policy in force and its catalogue (detectors, classes, actions), a
// new version (dry run honoured), the sample tester, the findings and what is left to remask.
import { z } from 'zod';
import { listQuerySchema, listResultSchema } from '@/modules/kernel/core/index.ts';
import { ACTIONS, DATA_CLASSES } from './policy/data-classes.ts';
import { DETECTOR_IDS } from './policy/detectors.ts';
import { policyBodySchema, policyBodyShape, ruleSchema, RULE_TARGETS, uniqueRuleIds } from './policy/policy.ts';

const policySchema = z.object({
  version: z.number().int(),
  rules: z.array(ruleSchema),
  detectors: z.array(z.enum(DETECTOR_IDS)),
  actions: z.record(z.string(), z.enum(ACTIONS)),
});

export const policyOutput = z.object({
  policy: policySchema,
  catalogue: z.object({
    detectors: z.array(
      z.object({ id: z.enum(DETECTOR_IDS), dataClass: z.enum(DATA_CLASSES), description: z.string() }),
    ),
    dataClasses: z.array(z.enum(DATA_CLASSES)),
    actions: z.array(z.enum(ACTIONS)),
    targets: z.array(z.enum(RULE_TARGETS)),
  }),
  /** Roles that hold message:clear (anywhere): who may see values in clear. */
  clearRoles: z.array(z.string()),
});

export const savePolicyInput = z
  .object({
    ...policyBodyShape,
    dryRun: z.boolean().default(false).describe('Validate and audit without putting it in force'),
  })
  .refine(uniqueRuleIds, { message: 'rule ids must be unique', path: ['rules'] });
export const savePolicyOutput = z.object({ policy: policySchema, dryRun: z.boolean() });

const redactionSchema = z.object({
  location: z.string(),
  dataClass: z.enum(DATA_CLASSES),
  action: z.enum([...ACTIONS, 'clear']),
  by: z.string(),
});

export const testInput = z.object({
  address: z.string().trim().max(500).optional(),
  headers: z.record(z.string(), z.unknown()).optional(),
  properties: z.record(z.string(), z.unknown()).optional(),
  body: z.string().max(1_048_576).optional(),
  contentType: z.string().max(200).optional(),
  /** A draft to try instead of the policy in force. */
  draft: policyBodySchema.optional(),
});

const viewSchema = z.object({
  headers: z.record(z.string(), z.unknown()),
  properties: z.record(z.string(), z.unknown()),
  body: z.union([
    z.object({ kind: z.literal('empty') }),
    z.object({ kind: z.literal('json'), value: z.unknown() }),
    z.object({ kind: z.enum(['xml', 'text']), value: z.string() }),
    z.object({ kind: z.literal('withheld'), reason: z.string() }),
  ]),
  redactions: z.array(redactionSchema),
});

export const testOutput = z.object({
  policyVersion: z.number().int().describe('The version tried (the draft’s is -1)'),
  masked: viewSchema.describe('What a caller without message:clear sees'),
  clear: viewSchema.describe('What a caller with message:clear sees (credentials still dropped)'),
  clearRoles: z.array(z.string()),
});

export const findingsInput = listQuerySchema(['lastSeenAt', 'count', 'location', 'address'], '-lastSeenAt').extend({
  dataClass: z.enum(DATA_CLASSES).optional(),
});
export const findingsOutput = listResultSchema(
  z.object({
    address: z.string(),
    location: z.string(),
    detector: z.string(),
    dataClass: z.enum(DATA_CLASSES),
    count: z.number(),
    firstSeenAt: z.string(),
    lastSeenAt: z.string(),
    suggestedRule: ruleSchema
      .nullable()
      .describe(
        'A rule that would classify this location (a JSON or XML path, a property, a header); null for plain text',
      ),
  }),
);

export const remaskOutput = z.object({
  policyVersion: z.number().int(),
  stores: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      remaining: z.number().int().describe('Stored rows masked by an older version'),
    }),
  ),
});
