// The fleet's dead letters: GET /api/v1/dead-letters (every dead-letter and expiry queue of the clusters whose queues
// the caller may read; the others are simply absent) and POST /api/v1/clusters/{clusterId}/dead-letters/redrive
// (message:write on the cluster). Thin: dead-letters.ts does the work; the counts follow `queues` signals.
import { moduleProcedure } from '@/modules/kernel/access/index.ts';
import { parseSort } from '@/modules/kernel/core/index.ts';
import type { DeadLetterQuery } from '@/modules/platform/scrape/read/index.ts';
import { followQueueSignals } from './dead-letter-counts.ts';
import { listDeadLetters, redriveDeadLetters } from './dead-letters.ts';
import { listDeadLettersInput, listDeadLettersOutput, redriveInput, redriveOutput } from './dead-letters.schema.ts';

const procedure = moduleProcedure('queues');
const tags = ['queues'];

export const deadLetterProcedures = {
  deadLetters: procedure('authenticated')
    .meta({
      openapi: {
        method: 'GET',
        path: '/dead-letters',
        tags,
        summary:
          'Every dead-letter and expiry queue of your clusters, with its depth, oldest message and the original addresses its messages died on',
      },
    })
    .input(listDeadLettersInput)
    .output(listDeadLettersOutput)
    .query(async ({ ctx, input }) => {
      followQueueSignals(ctx.runtime);
      return listDeadLetters(ctx.runtime, await ctx.grants(), {
        q: input.q || undefined,
        cluster: input.cluster,
        sort: parseSort<DeadLetterQuery['sort']['field']>(input.sort),
        page: input.page,
        pageSize: input.pageSize,
      });
    }),

  redriveDeadLetters: procedure({ clusterPermission: 'message:write' })
    .meta({
      openapi: {
        method: 'POST',
        path: '/clusters/{clusterId}/dead-letters/redrive',
        tags,
        summary:
          'Send the messages of dead-letter queues back to their original addresses, whole or by original address, as one command (capped; dry run first)',
      },
    })
    .input(redriveInput)
    .output(redriveOutput)
    .mutation(({ ctx, input }) => redriveDeadLetters(ctx.runtime, ctx.request, input)),
};
