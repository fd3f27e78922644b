// The queues API under /api/v1/clusters/{clusterId}/queues: the cross-node grid and one queue. Read from the
// scrape's queue_snapshot; no broker call. The page's queue and address names leave through the content policy.
import { pageOf, parseSort, ProblemError } from '@/modules/kernel/core/index.ts';
import {
  readQueueGrid,
  readQueueTrends,
  trendKeyOf,
  type QueueGridFilters,
  type QueueGridSortField,
} from '@/modules/platform/scrape/read/index.ts';
import { guardCluster, moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { auditClearView, governFields, requireClearAccess } from '@/modules/platform/governance/index.ts';
import type { Database } from '@/base/db/database.ts';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import { queueVerdictSource, type QueueVerdictSource } from '../module.ts';
import {
  getQueueInput,
  listQueuesInput,
  listQueuesOutput,
  queueGridRowSchema,
  type ListQueuesInput,
} from './queues.schema.ts';
import { queueActionProcedures } from './queue-actions.router.ts';
import { queueNotFound } from './queue-actions.ts';
import { deadLetterProcedures } from './dead-letters.router.ts';

const procedure = moduleProcedure('queues');
const queueRead = { clusterPermission: 'queue:read' } as const;

/** The installed verdict source (the metrics module), loaded once per registry; undefined when none is on. */
const sources = new WeakMap<ModuleRegistry, Promise<QueueVerdictSource | undefined>>();
function verdictSourceOf(registry: ModuleRegistry): Promise<QueueVerdictSource | undefined> {
  let source = sources.get(registry);
  if (!source) {
    const [declared] = registry.contributionsTo(queueVerdictSource);
    source = declared ? declared.value.load() : Promise.resolve(undefined);
    sources.set(registry, source);
  }
  return source;
}

/** Names of the cluster's queues with one of the verdicts asked for (a 400 naming an unknown one). */
async function queuesWithVerdicts(
  source: QueueVerdictSource | undefined,
  db: Database,
  clusterId: string,
  text: string,
): Promise<string[]> {
  const wanted = text.split(',').filter(Boolean);
  if (!source) {
    throw new ProblemError({
      type: 'validation-failed',
      title: 'No verdicts here',
      status: 400,
      detail: 'Filtering by verdict needs the metrics module, which is off (flotilla.features.metrics.enabled).',
    });
  }
  const unknown = wanted.filter((verdict) => !source.verdicts.includes(verdict));
  if (unknown.length > 0) {
    throw new ProblemError({
      type: 'validation-failed',
      title: 'Unknown verdict',
      status: 400,
      detail: `Unknown verdict ${unknown.join(', ')}; one of ${source.verdicts.join(', ')}.`,
    });
  }
  return [...(await source.verdictsOf(db, clusterId, { verdicts: wanted })).keys()];
}

const flagOf = (value: 'true' | 'false' | undefined) => (value === undefined ? undefined : value === 'true');

/** The API's filters as the grid read takes them (absent ones left out). */
function gridFiltersOf(input: ListQueuesInput): QueueGridFilters {
  const filters: QueueGridFilters = {
    q: input.q || undefined,
    consumers: input.consumers,
    paused: flagOf(input.paused),
    stale: flagOf(input.stale),
    deadLetter: flagOf(input.deadLetter),
    growing: flagOf(input.growing),
    includeInternal: flagOf(input.internal),
  };
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined));
}

export const queuesRouter = router({
  list: procedure(queueRead)
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/queues',
        tags: ['queues'],
        summary: 'The queue grid: one row per queue with a cell per node, totals over logical nodes',
      },
    })
    .input(listQueuesInput)
    .output(listQueuesOutput)
    .query(async ({ ctx, input }) => {
      const clear = input.clear === 'true';
      if (clear)
        requireClearAccess(
          (await guardCluster({ ...ctx.runtime, grants: ctx.grants, clusterId: input.clusterId })).permissions,
        );
      const source = await verdictSourceOf(ctx.runtime.registry);
      const withVerdicts = input.verdict
        ? await queuesWithVerdicts(source, ctx.runtime.db, input.clusterId, input.verdict)
        : undefined;
      const { items, total, deadLetterSettings } = await readQueueGrid(ctx.runtime.db, {
        clusterId: input.clusterId,
        ...gridFiltersOf(input),
        ...(withVerdicts ? { queueNames: withVerdicts } : {}),
        sort: parseSort<QueueGridSortField>(input.sort),
        page: input.page,
        pageSize: input.pageSize,
      });
      // The page's trends and verdicts in one more statement each, whatever the page size.
      const [trends, verdicts] = await Promise.all([
        readQueueTrends(ctx.runtime.db, input.clusterId, items),
        source?.verdictsOf(ctx.runtime.db, input.clusterId, { names: items.map((row) => row.queueName) }),
      ]);
      const rows = items.map((row) => {
        const trend = trends.get(trendKeyOf(row));
        return {
          ...row,
          trend: trend ? { depth: trend.depth, inRate: trend.inRate, outRate: trend.outRate } : null,
          verdict: verdicts?.get(row.queueName) ?? null,
        };
      });
      // Only the page is governed: a grid of 100,000 queues costs a scan of one page's names (a queue may be named
      // after a card number); search and filters match the names as scraped.
      const shown = await governFields(ctx.runtime, rows, ['queueName', 'address'], { clear });
      if (clear)
        await auditClearView(ctx.runtime.prisma, ctx.request, {
          target: `queues of cluster ${input.clusterId}`,
          governed: shown.governed,
        });
      return { ...pageOf(shown.rows, total, input.page, input.pageSize), deadLetterSettings };
    }),

  get: procedure(queueRead)
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/queues/{queueName}',
        tags: ['queues'],
        summary: 'One queue with its cell per node',
      },
    })
    .input(getQueueInput)
    .output(queueGridRowSchema)
    .query(async ({ ctx, input }) => {
      const { items } = await readQueueGrid(ctx.runtime.db, {
        clusterId: input.clusterId,
        queueName: input.queueName,
        sort: { field: 'address', direction: 'asc' },
        page: 1,
        pageSize: 1,
      });
      const [queue] = items;
      if (!queue) throw queueNotFound(input.queueName);
      return queue;
    }),
  ...queueActionProcedures,
  ...deadLetterProcedures,
});
