import { z } from 'zod';
import { listQuerySchema, listResultSchema } from '@/modules/kernel/core/index.ts';

export const listJobsInput = listQuerySchema(['id', 'module', 'status', 'lastFinishedAt'], 'id');

const jobViewSchema = z.object({
  id: z.string(),
  module: z.string(),
  description: z.string(),
  instanceId: z.string(),
  schedule: z.string(),
  intervalMs: z.number().nullable(),
  running: z.boolean(),
  lastStartedAt: z.string().nullable(),
  lastFinishedAt: z.string().nullable(),
  lastDurationMs: z.number().nullable(),
  lastOutcome: z.string().nullable(),
  lastError: z.string().nullable(),
  lastSummary: z.string().nullable(),
  nextRunAt: z.string().nullable(),
  consecutiveFailures: z.number(),
  status: z.enum(['OK', 'FAILING', 'DEGRADED', 'WAITING']),
});

export const listJobsOutput = listResultSchema(jobViewSchema);
