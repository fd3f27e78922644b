// zod inputs and outputs of the alerting procedures.
import { z } from 'zod';
import { listQuerySchema } from '@/modules/kernel/core/index.ts';
import { channelConfigSchema } from './channels.ts';
import { SUBJECT_PATTERN_MAX_LENGTH } from './subject-pattern.ts';

const SEVERITIES = ['info', 'warning', 'critical'] as const;

const ruleFields = {
  name: z.string().trim().min(1).max(200),
  condition: z.object({
    kind: z.string().min(1).max(100).describe('A contributed condition: queue-threshold, node-down, split-brain, …'),
    params: z.record(z.string(), z.unknown()).default({}),
  }),
  clusterId: z
    .uuid()
    .nullable()
    .default(null)
    .describe('Only this cluster; with environmentId null too: every cluster'),
  environmentId: z.uuid().nullable().default(null).describe('Only the clusters of this environment'),
  pattern: z
    .string()
    .trim()
    .min(1)
    .max(SUBJECT_PATTERN_MAX_LENGTH)
    .nullable()
    .default(null)
    .describe('Queue or address names the rule looks at (* any characters, ? one)'),
  severity: z.enum(SEVERITIES).default('warning'),
  forSeconds: z.number().int().min(0).max(86_400).default(0).describe('How long it must hold before it fires'),
  labels: z.record(z.string().max(100), z.string().max(500)).default({}),
  channelIds: z.array(z.uuid()).max(20).default([]),
  enabled: z.boolean().default(true),
};

export const createRuleInput = z.object({ ...ruleFields, dryRun: z.boolean().default(false) });

/** A draft rule to preview (the editor's live preview): what it would fire on now, nothing saved or audited. */
export const previewRuleInput = z.object(ruleFields);

export const previewRuleOutput = z.object({
  wouldFire: z.array(
    z.object({ clusterId: z.string(), cluster: z.string(), subject: z.string(), value: z.number().nullable() }),
  ),
});

export const updateRuleInput = z.object({
  id: z.uuid(),
  name: ruleFields.name.optional(),
  condition: ruleFields.condition.optional(),
  clusterId: z.uuid().nullable().optional(),
  environmentId: z.uuid().nullable().optional(),
  pattern: z.string().trim().min(1).max(SUBJECT_PATTERN_MAX_LENGTH).nullable().optional(),
  severity: z.enum(SEVERITIES).optional(),
  forSeconds: z.number().int().min(0).max(86_400).optional(),
  labels: z.record(z.string().max(100), z.string().max(500)).optional(),
  channelIds: z.array(z.uuid()).max(20).optional(),
  enabled: z.boolean().optional(),
  dryRun: z.boolean().default(false),
});

export const ruleView = z.object({
  id: z.string(),
  name: z.string(),
  condition: z.object({ kind: z.string(), params: z.record(z.string(), z.unknown()) }),
  clusterId: z.string().nullable(),
  environmentId: z.string().nullable(),
  pattern: z.string().nullable(),
  severity: z.string(),
  forSeconds: z.number().int(),
  labels: z.record(z.string(), z.string()),
  channelIds: z.array(z.string()),
  enabled: z.boolean(),
  builtIn: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const wouldFire = z.array(
  z.object({ clusterId: z.string(), cluster: z.string(), subject: z.string(), value: z.number().nullable() }),
);

export const ruleMutationOutput = z.object({
  rule: ruleView,
  dryRun: z.boolean(),
  wouldFire: wouldFire.nullable().describe('With dryRun: what the rule would fire on now, before any for-duration'),
});

const RULE_SORT_FIELDS = ['name', 'severity', 'createdAt'] as const;
export const listRulesInput = listQuerySchema(RULE_SORT_FIELDS, 'name');

export const channelView = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.string(),
  target: z.string().describe('Where it sends (the origin only: the path may itself be a secret)'),
  createdAt: z.string(),
  lastDelivery: z
    .object({
      status: z.string().describe('pending, delivered or failed'),
      event: z.string(),
      response: z
        .string()
        .nullable()
        .describe('The last answer: its status line only (never a body), or why nothing was sent or answered'),
      at: z.string(),
    })
    .nullable()
    .optional()
    .describe('Its newest delivery (lists only; null when it never sent one): a failing channel shows here'),
});

export const createChannelInput = z.object({
  name: z.string().trim().min(1).max(200),
  config: channelConfigSchema,
  dryRun: z.boolean().default(false),
});

export const updateChannelInput = z.object({
  id: z.uuid(),
  name: z.string().trim().min(1).max(200).optional(),
  config: channelConfigSchema.optional(),
  dryRun: z.boolean().default(false),
});

const CHANNEL_SORT_FIELDS = ['name', 'kind', 'createdAt'] as const;
export const listChannelsInput = listQuerySchema(CHANNEL_SORT_FIELDS, 'name');

export const alertView = z.object({
  id: z.string(),
  ruleId: z.string(),
  rule: z.string(),
  severity: z.string(),
  clusterId: z.string(),
  subject: z.string(),
  state: z.enum(['pending', 'firing', 'resolved']),
  since: z.string(),
  firedAt: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
  silencedUntil: z.string().nullable(),
  silenceReason: z.string().nullable(),
  lastValue: z.number().nullable(),
  flapCount: z.number().int().describe('How often it fired again within alerting.flap-window of resolving'),
});

const ALERT_SORT_FIELDS = ['since', 'firedAt', 'resolvedAt', 'subject', 'state'] as const;
export const listAlertsInput = listQuerySchema(ALERT_SORT_FIELDS, '-since').extend({
  view: z
    .enum(['open', 'firing', 'history', 'all'])
    .default('open')
    .describe('open: pending and firing; firing; history: resolved; all'),
  clusterId: z.uuid().optional(),
  id: z.uuid().optional().describe('Only this alert (a link to it: the console opens its drawer)'),
});

export const deliveryView = z.object({
  id: z.string(),
  channelId: z.string(),
  event: z.string(),
  attempt: z.number().int(),
  status: z.string(),
  response: z.string().nullable(),
  at: z.string(),
  nextAttemptAt: z.string().nullable(),
});
