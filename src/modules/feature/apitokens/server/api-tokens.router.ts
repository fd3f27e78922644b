import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { moduleProcedure, requireSignedInUser, router } from '@/modules/kernel/access/index.ts';
import {
  listQuerySchema,
  listResultSchema,
  pageOf,
  parseSort,
  ProblemError,
  validationProblem,
} from '@/modules/kernel/core/index.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import { newToken, tokenDigest } from './api-token.ts';
import { API_TOKEN_SETTINGS } from './api-tokens.settings.ts';
import { oneAtATimeFor, refuseBeyondLimits, refuseBeyondLimitsLocked } from './token-limits.ts';

const procedure = moduleProcedure('apitokens');

const tokenView = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});

const iso = (date: Date | null) => date?.toISOString() ?? null;

const TOKEN_SORT_FIELDS = ['name', 'createdAt', 'expiresAt', 'lastUsedAt'] as const;
type TokenSortField = (typeof TOKEN_SORT_FIELDS)[number];

export const apiTokensRouter = router({
  create: procedure('authenticated')
    .meta({
      openapi: {
        method: 'POST',
        path: '/account/tokens',
        tags: ['account'],
        summary: 'Create an API token; the token is shown only in this answer',
      },
    })
    .input(
      z.object({
        name: z.string().trim().min(1).max(100),
        expiresAt: z.iso
          .datetime({ offset: true })
          .optional()
          .describe('When the token stops working; at most apitokens.max-lifetime ahead, which is also the default'),
        dryRun: z.boolean().default(false),
      }),
    )
    .output(
      z.object({
        id: z.string(),
        name: z.string(),
        token: z.string().nullable(),
        expiresAt: z.string().nullable(),
        dryRun: z.boolean(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const userId = requireSignedInUser(ctx.request);
      const { settings, prisma } = ctx.runtime;
      const latest = new Date(Date.now() + settings.duration(API_TOKEN_SETTINGS.maxLifetime));
      const expiresAt = input.expiresAt ? new Date(input.expiresAt) : latest;
      if (expiresAt <= new Date() || expiresAt > latest) {
        const rule = `must be in the future and no later than ${latest.toISOString()} (apitokens.max-lifetime)`;
        throw new ProblemError(validationProblem([{ field: 'expiresAt', message: rule }], `expiresAt ${rule}.`));
      }
      const cap = settings.integer(API_TOKEN_SETTINGS.maxPerUser);
      const id = randomUUID();
      const token = input.dryRun ? null : newToken();
      await oneAtATimeFor(userId, async () => {
        await refuseBeyondLimits(prisma, userId, input.name, cap);
        await audited(
          ctx.runtime.prisma,
          ctx.request,
          {
            action: 'apitoken.create',
            target: input.name,
            parameters: { expiresAt: input.expiresAt ?? null },
            dryRun: input.dryRun,
          },
          async (tx) => {
            if (token) {
              await refuseBeyondLimitsLocked(tx, userId, input.name, cap);
              await tx.apiToken.create({
                data: { id, userId, name: input.name, tokenHash: tokenDigest(token), expiresAt },
              });
            }
            return { result: undefined };
          },
        );
      });
      return { id, name: input.name, token, expiresAt: iso(expiresAt), dryRun: input.dryRun };
    }),

  list: procedure('authenticated')
    .meta({
      openapi: {
        method: 'GET',
        path: '/account/tokens',
        tags: ['account'],
        summary: 'Your API tokens (never the tokens themselves)',
      },
    })
    .input(listQuerySchema(TOKEN_SORT_FIELDS, '-createdAt'))
    .output(listResultSchema(tokenView))
    .query(async ({ ctx, input }) => {
      const where = {
        userId: requireSignedInUser(ctx.request),
        ...(input.q ? { name: { contains: input.q, mode: 'insensitive' as const } } : {}),
      };
      const { field, direction } = parseSort<TokenSortField>(input.sort);
      const [rows, total] = await Promise.all([
        ctx.runtime.prisma.apiToken.findMany({
          where,
          // Never-used and never-expiring tokens sort last either way; the id keeps pages stable.
          orderBy: [
            field === 'expiresAt' || field === 'lastUsedAt'
              ? { [field]: { sort: direction, nulls: 'last' } }
              : { [field]: direction },
            { id: 'asc' },
          ],
          skip: (input.page - 1) * input.pageSize,
          take: input.pageSize,
        }),
        ctx.runtime.prisma.apiToken.count({ where }),
      ]);
      const items = rows.map((row) => ({
        id: row.id,
        name: row.name,
        createdAt: row.createdAt.toISOString(),
        expiresAt: iso(row.expiresAt),
        lastUsedAt: iso(row.lastUsedAt),
      }));
      return pageOf(items, total, input.page, input.pageSize);
    }),

  revoke: procedure('authenticated')
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/account/tokens/{id}',
        tags: ['account'],
        summary: 'Revoke one of your API tokens',
      },
    })
    .input(z.object({ id: z.uuid(), dryRun: z.boolean().default(false) }))
    .output(z.object({ id: z.string(), revoked: z.boolean(), dryRun: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const userId = requireSignedInUser(ctx.request);
      // Someone else's token answers exactly like a missing one.
      const row = await ctx.runtime.prisma.apiToken.findFirst({ where: { id: input.id, userId } });
      if (!row)
        throw new ProblemError({
          type: 'not-found',
          title: 'Not found',
          status: 404,
          detail: 'You have no API token with that id.',
        });
      await audited(
        ctx.runtime.prisma,
        ctx.request,
        { action: 'apitoken.revoke', target: row.name, dryRun: input.dryRun },
        async (tx) => {
          if (!input.dryRun) await tx.apiToken.delete({ where: { id: row.id } });
          return { result: undefined };
        },
      );
      return { id: row.id, revoked: !input.dryRun, dryRun: input.dryRun };
    }),
});
