// The rr API: per-address request-reply flows, one flow over time, the correlations that did not complete, a trace
// by correlation id, and the declared expectations (audited, versioned, dry run honoured).
import { guardCluster, moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { expectationHistory, listExpectations, putExpectation, removeExpectation } from './expectations.ts';
import { listCorrelations, listFlows, readFlow, traceCorrelation } from './reads.ts';
import {
  expectationChangeOutput,
  expectationHistoryInput,
  expectationHistoryOutput,
  flowInput,
  flowOutput,
  listCorrelationsInput,
  listCorrelationsOutput,
  listExpectationsInput,
  listExpectationsOutput,
  listFlowsInput,
  listFlowsOutput,
  putExpectationInput,
  removeExpectationInput,
  traceInput,
  traceOutput,
} from './rr.schema.ts';

const procedure = moduleProcedure('rr');
const tags = ['rr'];
const read = { clusterPermission: 'rr:read' } as const;
const manage = { clusterPermission: 'rr:manage' } as const;

const expectationsRouter = router({
  list: procedure(read)
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/rr/expectations',
        tags,
        summary: 'The declared expectations: per request address, the expected latency and the deadline',
      },
    })
    .input(listExpectationsInput)
    .output(listExpectationsOutput)
    .query(async ({ ctx, input }) => ({ items: await listExpectations(ctx.runtime.prisma, input.clusterId) })),
  put: procedure(manage)
    .meta({
      openapi: {
        method: 'PUT',
        path: '/clusters/{clusterId}/rr/expectations',
        tags,
        summary: 'Declare or change an address’s expectation (a new version); audited',
      },
    })
    .input(putExpectationInput)
    .output(expectationChangeOutput)
    .mutation(async ({ ctx, input }) => {
      const { cluster } = await guardCluster({ ...ctx.runtime, grants: ctx.grants, clusterId: input.clusterId });
      return putExpectation(ctx.runtime, ctx.request, { id: input.clusterId, name: cluster.name }, input);
    }),
  remove: procedure(manage)
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/clusters/{clusterId}/rr/expectations',
        tags,
        summary: 'Remove an address’s expectation (its history stays); audited',
      },
    })
    .input(removeExpectationInput)
    .output(expectationChangeOutput)
    .mutation(async ({ ctx, input }) => {
      const { cluster } = await guardCluster({ ...ctx.runtime, grants: ctx.grants, clusterId: input.clusterId });
      return removeExpectation(ctx.runtime, ctx.request, { id: input.clusterId, name: cluster.name }, input);
    }),
  history: procedure(read)
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/rr/expectations/history',
        tags,
        summary: 'Every version of an address’s expectation, removals included, newest first',
      },
    })
    .input(expectationHistoryInput)
    .output(expectationHistoryOutput)
    .query(async ({ ctx, input }) => ({
      items: await expectationHistory(ctx.runtime.prisma, input.clusterId, input.address),
    })),
});

export const rrRouter = router({
  flows: procedure(read)
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/rr/flows',
        tags,
        summary:
          'Request-reply flows per request address over a window: requests, counts per state, latency percentiles, and how each is fed',
      },
    })
    .input(listFlowsInput)
    .output(listFlowsOutput)
    .query(({ ctx, input }) => listFlows(ctx.runtime, input)),
  flow: procedure(read)
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/rr/flow',
        tags,
        summary:
          'One request address over time: request and reply rates, p50/p95/p99 latency per bucket, counts per state',
      },
    })
    .input(flowInput)
    .output(flowOutput)
    .query(({ ctx, input }) => readFlow(ctx.runtime, input)),
  correlations: procedure(read)
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/rr/correlations',
        tags,
        summary:
          'The latest correlations that did not complete (or of one state), with the request’s headers masked by the policy',
      },
    })
    .input(listCorrelationsInput)
    .output(listCorrelationsOutput)
    .query(({ ctx, input }) => listCorrelations(ctx.runtime.prisma, input)),
  trace: procedure(read)
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/rr/trace',
        tags,
        summary: 'What became of a request, by its correlation id (or its message id when replies carry that)',
      },
    })
    .input(traceInput)
    .output(traceOutput)
    .query(({ ctx, input }) => traceCorrelation(ctx.runtime.prisma, input.clusterId, input.correlationId)),
  expectations: expectationsRouter,
});
