// /api/v1/auth/throttles: the sign-in throttle's locks and waits, for administrators to see and to lift (a user
// locked out by someone guessing their password must not wait out the window). Lifting one is audited.
import { z } from 'zod';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import { moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { activeThrottles, clearThrottle } from '../sign-in-throttle.ts';
import { restMeta } from './rest-meta.ts';

const procedure = moduleProcedure('security');
const meta = restMeta('users');

const throttleView = z.object({
  key: z.string().describe('pair:<username>|<address>, user:<username>, source:<address> or bearer:<address>'),
  kind: z.enum(['pair', 'user', 'source', 'bearer']),
  failures: z.number().int(),
  lockedUntil: z.string().nullable(),
  nextAttemptAt: z.string().nullable().describe('No attempt for this key before this time (the progressive delay)'),
  refused: z.number().int().describe('Attempts refused since the last admitted one'),
});

export const throttlesRouter = router({
  list: procedure({ permission: 'users:read' })
    .meta(meta('GET', '/auth/throttles', 'Sign-in locks and waits in force now'))
    .input(z.object({}))
    .output(z.object({ items: z.array(throttleView) }))
    .query(async ({ ctx }) => ({ items: await activeThrottles(ctx.runtime.prisma) })),

  unlock: procedure({ permission: 'users:write' })
    .meta(meta('DELETE', '/auth/throttles/{key}', 'Lift a sign-in lock or wait now (audited)'))
    .input(z.object({ key: z.string().min(1).max(600), dryRun: z.boolean().default(false) }))
    .output(z.object({ unlocked: throttleView, dryRun: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const { prisma } = ctx.runtime;
      const current = (await activeThrottles(prisma)).find((entry) => entry.key === input.key);
      if (!current) throw throttleNotFound();
      await audited(
        prisma,
        ctx.request,
        { action: 'auth.sign-in.unlock', target: input.key, dryRun: input.dryRun },
        async (tx) => {
          if (!input.dryRun) await clearThrottle(tx, input.key);
          // The refused attempts were counted, not audited one by one: their number is kept here.
          return { result: null, completion: { nodeDetail: { failures: current.failures, refused: current.refused } } };
        },
      );
      return { unlocked: current, dryRun: input.dryRun };
    }),
});

function throttleNotFound(): ProblemError {
  return new ProblemError({
    type: 'not-found',
    title: 'No such lock',
    status: 404,
    detail: 'No sign-in lock or wait is in force under this key.',
  });
}
