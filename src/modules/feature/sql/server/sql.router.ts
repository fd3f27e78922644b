// The SQL console's API: a query over the live brokers or the message index, the editor's completions, what feeds
// the index (capture taps and sampled queues), and saved queries. Content goes through the content policy; seeing
// values in clear needs message:clear and is audited as VIEW_CLEAR.
import { z } from 'zod';
import { guardCluster, moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { auditClearView, requireClearAccess } from '@/modules/platform/governance/index.ts';
import { readCompletions } from './completions.ts';
import { runQuery } from './run-query.ts';
import { listSavedQueries, removeQuery, saveQuery } from './saved-queries.ts';
import { removeQueryInput, saveQueryInput, savedQueriesInput, savedQueriesOutput } from './saved-queries.schema.ts';
import { queryInput, queryOutput } from './sql.schema.ts';
import { createSubscription, listSubscriptions, removeSubscription, subscriptionNotices } from './subscriptions.ts';
import {
  createSubscriptionInput,
  listSubscriptionsInput,
  listSubscriptionsOutput,
  removeSubscriptionInput,
  subscriptionChangeOutput,
} from './subscriptions.schema.ts';

const procedure = moduleProcedure('sql');
const tags = ['sql'];
const query = { clusterPermission: 'sql:query' } as const;
const manage = { clusterPermission: 'capture:manage' } as const;

const savedQueriesRouter = router({
  list: procedure('authenticated')
    .meta({
      openapi: {
        method: 'GET',
        path: '/sql/saved-queries',
        tags,
        summary: 'Your saved queries and those shared with everyone',
      },
    })
    .input(savedQueriesInput)
    .output(savedQueriesOutput)
    .query(({ ctx, input }) => listSavedQueries(ctx.runtime.prisma, ctx.request, input)),
  save: procedure('authenticated')
    .meta({
      openapi: {
        method: 'POST',
        path: '/sql/saved-queries',
        tags,
        summary: 'Save a query, or change one of yours (with id); audited',
      },
    })
    .input(saveQueryInput)
    .output(z.object({ id: z.string(), dryRun: z.boolean() }))
    .mutation(({ ctx, input }) => saveQuery(ctx.runtime.prisma, ctx.request, input)),
  remove: procedure('authenticated')
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/sql/saved-queries/{id}',
        tags,
        summary: 'Delete one of your saved queries; audited',
      },
    })
    .input(removeQueryInput)
    .output(z.object({ id: z.string(), dryRun: z.boolean() }))
    .mutation(({ ctx, input }) => removeQuery(ctx.runtime.prisma, ctx.request, input)),
});

const subscriptionsRouter = router({
  list: procedure(query)
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/sql/subscriptions',
        tags,
        summary: 'What feeds the cluster’s message index: capture taps and sampled queues, with their state',
      },
    })
    .input(listSubscriptionsInput)
    .output(listSubscriptionsOutput)
    .query(async ({ ctx, input }) => ({
      items: await listSubscriptions(ctx.runtime.prisma, input.clusterId),
      notices: subscriptionNotices(ctx.runtime),
    })),
  create: procedure(manage)
    .meta({
      openapi: {
        method: 'POST',
        path: '/clusters/{clusterId}/sql/subscriptions',
        tags,
        summary:
          'Capture an address (preflight on every serving node: refused with the broker configuration that would allow it) or sample a queue; audited',
      },
    })
    .input(createSubscriptionInput)
    .output(subscriptionChangeOutput)
    .mutation(async ({ ctx, input }) => {
      const { cluster } = await guardCluster({ ...ctx.runtime, grants: ctx.grants, clusterId: input.clusterId });
      return createSubscription(ctx.runtime, ctx.request, { id: input.clusterId, name: cluster.name }, input);
    }),
  remove: procedure(manage)
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/clusters/{clusterId}/sql/subscriptions/{id}',
        tags,
        summary: 'Stop capturing or sampling; the reconciler removes the tap from every node on its next pass; audited',
      },
    })
    .input(removeSubscriptionInput)
    .output(subscriptionChangeOutput)
    .mutation(async ({ ctx, input }) => {
      const { cluster } = await guardCluster({ ...ctx.runtime, grants: ctx.grants, clusterId: input.clusterId });
      return removeSubscription(ctx.runtime, ctx.request, { id: input.clusterId, name: cluster.name }, input);
    }),
});

export const sqlRouter = router({
  query: procedure(query)
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/sql/query',
        tags,
        summary:
          'Run a SELECT over the live brokers (fanned out, selector pushed down) or the message index; every bound reached is said in words',
      },
    })
    .input(queryInput)
    .output(queryOutput)
    .query(async ({ ctx, input }) => {
      const clear = input.clear === 'true';
      if (clear)
        requireClearAccess(
          (await guardCluster({ ...ctx.runtime, grants: ctx.grants, clusterId: input.clusterId })).permissions,
        );
      const { governed, ...answer } = await runQuery(ctx.runtime, { ...input, clear });
      if (clear)
        await auditClearView(ctx.runtime.prisma, ctx.request, { target: `SQL ${input.source} query`, governed });
      return answer;
    }),

  completions: procedure(query)
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/sql/completions',
        tags,
        summary: 'What the editor completes: the cluster’s address names and the property keys recent index rows carry',
      },
    })
    .input(z.object({ clusterId: z.uuid() }))
    .output(z.object({ addresses: z.array(z.string()), propertyKeys: z.array(z.string()) }))
    .query(({ ctx, input }) => readCompletions(ctx.runtime, input.clusterId)),

  savedQueries: savedQueriesRouter,
  subscriptions: subscriptionsRouter,
});
