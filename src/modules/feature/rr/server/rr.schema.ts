// The rr API's inputs and outputs: per-address flows, one flow over time, the correlations that did not complete,
// a trace by correlation id, and the declared expectations with their history.
import { z } from 'zod';
import { listQuerySchema, listResultSchema } from '@/modules/kernel/core/index.ts';
import { RR_STATES } from './correlator/rr-types.ts';

export const WINDOWS = {
  '15m': 15 * 60_000,
  '1h': 3_600_000,
  '6h': 6 * 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
};
const windowInput = z
  .enum(Object.keys(WINDOWS) as [keyof typeof WINDOWS, ...Array<keyof typeof WINDOWS>])
  .default('1h')
  .describe('How far back: 15m, 1h, 6h, 24h or 7d');

const address = z.string().min(1).max(1000);
const stateCounts = z.object(
  Object.fromEntries(RR_STATES.map((state) => [state, z.number().int()])) as Record<
    (typeof RR_STATES)[number],
    z.ZodNumber
  >,
);

const feedView = z.object({
  mode: z
    .enum(['capture', 'sample'])
    .describe('capture: every routed message; sample: browsed every rr.sample.interval'),
  notice: z.string().nullable().describe('What this feed cannot see, always shown when sampling'),
});

const expectationView = z.object({
  address,
  replyAddress: z.string().nullable(),
  expectedLatencyMs: z.number().int(),
  deadlineMs: z.number().int(),
  version: z.number().int(),
  updatedBy: z.string().nullable(),
  updatedAt: z.string(),
});

export const flowSummary = z.object({
  address,
  requests: z.number().int(),
  states: stateCounts,
  timedOutShare: z.number().nullable().describe('TIMED_OUT out of settled requests, 0..1'),
  p50: z.number().nullable(),
  p95: z.number().nullable(),
  p99: z.number().nullable(),
  lastRequestAt: z.string().nullable(),
  expectation: expectationView.nullable(),
  feed: feedView,
});

export const FLOW_SORT_FIELDS = ['address', 'requests', 'p95', 'timedOutShare'] as const;
export const listFlowsInput = listQuerySchema(FLOW_SORT_FIELDS, '-requests').extend({
  clusterId: z.uuid(),
  window: windowInput,
});
export const listFlowsOutput = listResultSchema(flowSummary).extend({ asOf: z.string() });

export const flowInput = z.object({ clusterId: z.uuid(), address, window: windowInput });
export const flowOutput = z.object({
  summary: flowSummary,
  bucketMs: z.number().int(),
  series: z.array(
    z.object({
      at: z.string(),
      requests: z.number().int(),
      replies: z.number().int(),
      p50: z.number().nullable(),
      p95: z.number().nullable(),
      p99: z.number().nullable(),
    }),
  ),
  asOf: z.string(),
});

export const correlationView = z.object({
  address,
  replyAddress: z.string().nullable(),
  pattern: z.enum(['shared-reply', 'temporary-queue']),
  state: z.enum(RR_STATES),
  feed: z.enum(['capture', 'sample']),
  nodeId: z.string(),
  correlationId: z.string().nullable().describe('As the content policy leaves it'),
  messageId: z.string().nullable().describe('As the content policy leaves it'),
  brokerMessageId: z.string().nullable(),
  requestAt: z.string(),
  replyAt: z.string().nullable(),
  latencyMs: z.number().int().nullable(),
  clock: z.enum(['message', 'observed']),
  deadlineAt: z.string().nullable(),
  deadlineSource: z.string().nullable(),
  stateAt: z.string(),
  note: z.string().nullable(),
  headers: z.record(z.string(), z.unknown()).nullable().describe('The request’s properties, masked by the policy'),
});

const CORRELATION_SORT_FIELDS = ['stateAt', 'requestAt', 'address', 'state'] as const;
export const listCorrelationsInput = listQuerySchema(CORRELATION_SORT_FIELDS, '-stateAt').extend({
  clusterId: z.uuid(),
  address: address.optional(),
  state: z.enum(RR_STATES).optional().describe('One state; without it every state but COMPLETED'),
});
export const listCorrelationsOutput = listResultSchema(correlationView).extend({ asOf: z.string() });

export const traceInput = z.object({ clusterId: z.uuid(), correlationId: z.string().min(1).max(1000) });
export const traceOutput = z.object({ items: z.array(correlationView) });

export const listExpectationsInput = z.object({ clusterId: z.uuid() });
export const listExpectationsOutput = z.object({ items: z.array(expectationView) });

export const putExpectationInput = z
  .object({
    clusterId: z.uuid(),
    address,
    replyAddress: address.nullable().default(null),
    expectedLatencyMs: z.number().int().min(1).max(86_400_000),
    deadlineMs: z.number().int().min(100).max(86_400_000),
    dryRun: z.boolean().default(false),
  })
  .refine((input) => input.deadlineMs >= input.expectedLatencyMs, {
    path: ['deadlineMs'],
    message: 'must be at least the expected latency',
  })
  .refine((input) => input.replyAddress !== input.address, {
    path: ['replyAddress'],
    message: 'must differ from the request address',
  });

export const removeExpectationInput = z.object({ clusterId: z.uuid(), address, dryRun: z.boolean().default(false) });

export const expectationChangeOutput = z.object({
  address,
  version: z.number().int(),
  dryRun: z.boolean(),
  next: z.string(),
});

export const expectationHistoryInput = z.object({ clusterId: z.uuid(), address });
export const expectationHistoryOutput = z.object({
  items: z.array(
    z.object({
      version: z.number().int(),
      replyAddress: z.string().nullable(),
      expectedLatencyMs: z.number().int().nullable(),
      deadlineMs: z.number().int().nullable(),
      removed: z.boolean(),
      actor: z.string().nullable(),
      at: z.string(),
    }),
  ),
});
