// The reads the console's alerting screens need beyond the lists: which conditions rules may name (with their
// parameters as JSON Schema, so the rule editor draws a form for any module's condition), which channel kinds exist
// (the same, for the channel form: a kind added to the channel schema appears without a console change), and the
// firing alerts counted per cluster (the fleet home's badges, one read for the whole fleet), and one alert's
// transition history (the alert drawer, beside its delivery log). Spread into
// alertingRouter; kept apart so the screens' needs do not interleave with the rules' and channels' procedures.
import { z } from 'zod';
import { moduleProcedure } from '@/modules/kernel/access/index.ts';
import { alertAccessOf, alertFor, requireAnywhere } from './alert-access.ts';
import { alertConditions } from './condition.ts';
import { channelConfigSchema } from './channels.ts';

const procedure = moduleProcedure('alerting');
// Held anywhere is enough to draw the forms; the counts keep to the clusters the caller may read (alert-access.ts).
const scoped = 'authenticated' as const;

const jsonSchema = z.record(z.string(), z.unknown()).describe('JSON Schema (draft 2020-12) of the accepted input');

const transitionView = z.object({
  seq: z.string().describe('Commit order of the transition (the `alerts` stream topic’s event id)'),
  transition: z.string().describe('pending, firing, reopened, resolved, dropped, acknowledged, silenced or unsilenced'),
  state: z.string().describe('The alert’s state after it'),
  actor: z.string().describe('`system` for the evaluator, else the user'),
  value: z.number().nullable(),
  at: z.string(),
});

/** The JSON Schema of what a client sends (defaults optional), without the `$schema` line. */
function inputSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const json = { ...(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>) };
  delete json.$schema;
  return json;
}

/** Each variant of the channel configuration, by its `kind` constant. */
function channelKinds(): { kind: string; config: Record<string, unknown> }[] {
  const schema = inputSchemaOf(channelConfigSchema);
  const variants = (schema.oneOf ?? schema.anyOf ?? [schema]) as Record<string, unknown>[];
  return variants.flatMap((variant) => {
    const kind = (variant.properties as Record<string, { const?: unknown }> | undefined)?.kind?.const;
    return typeof kind === 'string' ? [{ kind, config: variant }] : [];
  });
}

export const alertingReads = {
  conditions: procedure(scoped)
    .meta({
      openapi: {
        method: 'GET',
        path: '/alerts/conditions',
        tags: ['alerts'],
        summary: 'The conditions alert rules can name (contributed by enabled modules), with their parameters',
      },
    })
    .input(z.object({}))
    .output(z.object({ items: z.array(z.object({ kind: z.string(), description: z.string(), params: jsonSchema })) }))
    .query(async ({ ctx }) => {
      requireAnywhere(await ctx.grants(), 'alert:read');
      const declared = ctx.runtime.registry.contributionsTo(alertConditions);
      const items = await Promise.all(
        declared.map(async ({ value }) => ({
          kind: value.kind,
          description: value.describe,
          params: inputSchemaOf((await value.load()).params),
        })),
      );
      return { items };
    }),

  channelKinds: procedure(scoped)
    .meta({
      openapi: {
        method: 'GET',
        path: '/alerts/channels/kinds',
        tags: ['alerts'],
        summary: 'The kinds of notification channel, with the configuration each takes',
      },
    })
    .input(z.object({}))
    .output(z.object({ items: z.array(z.object({ kind: z.string(), config: jsonSchema })) }))
    .query(async ({ ctx }) => {
      requireAnywhere(await ctx.grants(), 'alert:read');
      return { items: channelKinds() };
    }),

  firingByCluster: procedure(scoped)
    .meta({
      openapi: {
        method: 'GET',
        path: '/alerts/firing-by-cluster',
        tags: ['alerts'],
        summary: 'How many alerts fire now in each cluster (critical ones and unacknowledged ones counted apart)',
      },
    })
    .input(z.object({}))
    .output(
      z.object({
        items: z.array(
          z.object({
            clusterId: z.string(),
            firing: z.number().int(),
            critical: z.number().int(),
            unacknowledged: z.number().int(),
          }),
        ),
      }),
    )
    .query(async ({ ctx }) => {
      const grants = await ctx.grants();
      requireAnywhere(grants, 'alert:read');
      const readable = (await alertAccessOf(ctx.runtime.prisma, grants)).clustersWith('alert:read');
      const rows = await ctx.runtime.prisma.$queryRaw<
        { cluster_id: string; firing: number; critical: number; unacknowledged: number }[]
      >`SELECT a.cluster_id::text AS cluster_id,
               count(*)::int AS firing,
               count(*) FILTER (WHERE r.severity = 'critical')::int AS critical,
               count(*) FILTER (WHERE a.acknowledged_at IS NULL)::int AS unacknowledged
          FROM alert a JOIN alert_rule r ON r.id = a.rule_id
         WHERE a.state = 'firing'
         GROUP BY a.cluster_id`;
      return {
        items: rows
          .filter((row) => readable.has(row.cluster_id))
          .map((row) => ({
            clusterId: row.cluster_id,
            firing: row.firing,
            critical: row.critical,
            unacknowledged: row.unacknowledged,
          })),
      };
    }),

  transitions: procedure(scoped)
    .meta({
      openapi: {
        method: 'GET',
        path: '/alerts/{id}/transitions',
        tags: ['alerts'],
        summary: 'The transition history of an alert, oldest first: who or what changed it, to which state, when',
      },
    })
    .input(z.object({ id: z.uuid() }))
    .output(z.object({ items: z.array(transitionView) }))
    .query(async ({ ctx, input }) => {
      const { prisma } = ctx.runtime;
      await alertFor(prisma, await ctx.grants(), input.id, 'alert:read');
      const rows = await prisma.alertTransition.findMany({
        where: { alertId: input.id },
        orderBy: { seq: 'asc' },
        select: { seq: true, transition: true, state: true, actor: true, value: true, at: true },
      });
      return {
        items: rows.map((row) => ({
          seq: row.seq.toString(),
          transition: row.transition,
          state: row.state,
          actor: row.actor,
          value: row.value,
          at: row.at.toISOString(),
        })),
      };
    }),
};
