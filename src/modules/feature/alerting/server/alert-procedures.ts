// Alerts: listed within the caller's reach with their deliveries; acknowledged, silenced and unsilenced by a user,
// each a transition written with its audit row and announced on the `alerts` topic after commit. Spread into
// alertingRouter.
import { z } from 'zod';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { PrismaClient } from '@/base/db/database.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import { listResultSchema, pageOf, parseSort, type RequestContext } from '@/modules/kernel/core/index.ts';
import { alertView, deliveryView, listAlertsInput } from './alerting.schema.ts';
import { invalid, iso, procedure, scoped } from './alerting-procedure.ts';
import { alertAccessOf, alertFor, requireAnywhere } from './alert-access.ts';
import { announceTransitions, cancelPendingDeliveries, recordUserTransition } from './transitions.ts';

type AlertRow = Awaited<ReturnType<PrismaClient['alert']['findUniqueOrThrow']>>;

function toAlertView(row: AlertRow & { rule: { name: string; severity: string } }): z.infer<typeof alertView> {
  return {
    id: row.id,
    ruleId: row.ruleId,
    rule: row.rule.name,
    severity: row.rule.severity,
    clusterId: row.clusterId,
    subject: row.subject,
    state: row.state as 'pending' | 'firing' | 'resolved',
    since: row.since.toISOString(),
    firedAt: iso(row.firedAt),
    resolvedAt: iso(row.resolvedAt),
    acknowledgedBy: row.acknowledgedBy,
    acknowledgedAt: iso(row.acknowledgedAt),
    silencedUntil: iso(row.silencedUntil),
    silenceReason: row.silenceReason,
    lastValue: row.lastValue,
    flapCount: row.flapCount,
  };
}

type LoadedAlert = Awaited<ReturnType<typeof alertFor>>;
const ACTIONS = {
  acknowledged: 'alert.acknowledge',
  silenced: 'alert.silence',
  unsilenced: 'alert.unsilence',
} as const;

/**
 * A user's change to an alert: audited (a dry run writes only the audit row), the row and its transition written in
 * one transaction, the transition announced after commit. Silencing also cancels what the alert had still to say.
 */
async function changeAlert(
  ctx: { runtime: { prisma: PrismaClient; bus: DatabaseBus }; request: RequestContext },
  alert: LoadedAlert,
  step: {
    transition: keyof typeof ACTIONS;
    dryRun: boolean;
    change: Partial<AlertRow>;
    parameters?: Record<string, unknown>;
    at?: Date;
  },
) {
  const { prisma } = ctx.runtime;
  const at = step.at ?? new Date();
  const range = await audited(
    prisma,
    ctx.request,
    {
      action: ACTIONS[step.transition],
      target: `${alert.rule.name}: ${alert.subject}`,
      ...(step.parameters ? { parameters: step.parameters } : {}),
      dryRun: step.dryRun,
    },
    async (tx) => {
      if (step.dryRun) return { result: undefined };
      await tx.alert.update({ where: { id: alert.id }, data: { ...step.change, updatedAt: at } });
      if (step.transition === 'silenced') await cancelPendingDeliveries(tx, alert.id, at);
      return { result: await recordUserTransition(tx, alert, step.transition, ctx.request.actor.name, at) };
    },
  );
  await announceTransitions(ctx.runtime.bus, range);
  return { ...toAlertView(step.dryRun ? alert : { ...alert, ...step.change }), dryRun: step.dryRun };
}

export const alertProcedures = {
  list: procedure(scoped)
    .meta({
      openapi: {
        method: 'GET',
        path: '/alerts',
        tags: ['alerts'],
        summary: 'Alerts: open (pending and firing), firing, history (resolved) or all',
      },
    })
    .input(listAlertsInput)
    .output(listResultSchema(alertView))
    .query(async ({ ctx, input }) => {
      const state =
        input.view === 'open'
          ? { in: ['pending', 'firing'] }
          : input.view === 'firing'
            ? { equals: 'firing' }
            : input.view === 'history'
              ? { equals: 'resolved' }
              : undefined;
      const grants = await ctx.grants();
      requireAnywhere(grants, 'alert:read');
      const readable = (await alertAccessOf(ctx.runtime.prisma, grants)).clustersWith('alert:read');
      // A cluster the caller may not read filters to nothing, as an unknown one does.
      const clusterIds = input.clusterId ? [input.clusterId].filter((id) => readable.has(id)) : [...readable];
      const where = {
        ...(state ? { state } : {}),
        ...(input.id ? { id: input.id } : {}),
        clusterId: { in: clusterIds },
        ...(input.q
          ? {
              OR: [
                { subject: { contains: input.q, mode: 'insensitive' as const } },
                { rule: { name: { contains: input.q, mode: 'insensitive' as const } } },
              ],
            }
          : {}),
      };
      const { field, direction } = parseSort<string>(input.sort);
      const [rows, total] = await Promise.all([
        ctx.runtime.prisma.alert.findMany({
          where,
          include: { rule: { select: { name: true, severity: true } } },
          orderBy: [
            field === 'firedAt' || field === 'resolvedAt'
              ? { [field]: { sort: direction, nulls: 'last' as const } }
              : { [field]: direction },
            { id: 'asc' as const },
          ],
          skip: (input.page - 1) * input.pageSize,
          take: input.pageSize,
        }),
        ctx.runtime.prisma.alert.count({ where }),
      ]);
      return pageOf(rows.map(toAlertView), total, input.page, input.pageSize);
    }),

  deliveries: procedure(scoped)
    .meta({
      openapi: {
        method: 'GET',
        path: '/alerts/{id}/deliveries',
        tags: ['alerts'],
        summary: 'The delivery log of an alert: one row per channel and event, with its last attempt',
      },
    })
    .input(z.object({ id: z.uuid() }))
    .output(z.object({ items: z.array(deliveryView) }))
    .query(async ({ ctx, input }) => {
      await alertFor(ctx.runtime.prisma, await ctx.grants(), input.id, 'alert:read');
      const rows = await ctx.runtime.prisma.alertDelivery.findMany({
        where: { alertId: input.id },
        orderBy: [{ at: 'asc' }, { id: 'asc' }],
      });
      return {
        items: rows.map((row) => ({
          id: row.id,
          channelId: row.channelId,
          event: row.event,
          attempt: row.attempt,
          status: row.status,
          response: row.response,
          at: row.at.toISOString(),
          nextAttemptAt: iso(row.nextAttemptAt),
        })),
      };
    }),

  acknowledge: procedure(scoped)
    .meta({
      openapi: {
        method: 'POST',
        path: '/alerts/{id}/acknowledge',
        tags: ['alerts'],
        summary: 'Acknowledge an alert: someone is on it (it keeps firing and resolving as before)',
      },
    })
    .input(z.object({ id: z.uuid(), dryRun: z.boolean().default(false) }))
    .output(alertView.extend({ dryRun: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const alert = await alertFor(ctx.runtime.prisma, await ctx.grants(), input.id, 'alert:write');
      const now = new Date();
      const acknowledgedBy = ctx.request.actor.name;
      return changeAlert(ctx, alert, {
        transition: 'acknowledged',
        dryRun: input.dryRun,
        at: now,
        change: { acknowledgedBy, acknowledgedAt: now },
      });
    }),

  silence: procedure(scoped)
    .meta({
      openapi: {
        method: 'POST',
        path: '/alerts/{id}/silence',
        tags: ['alerts'],
        summary: 'Silence an alert until a time, with a reason: it delivers nothing meanwhile',
      },
    })
    .input(
      z.object({
        id: z.uuid(),
        until: z.iso.datetime({ offset: true }),
        reason: z.string().trim().min(1).max(500),
        dryRun: z.boolean().default(false),
      }),
    )
    .output(alertView.extend({ dryRun: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const alert = await alertFor(ctx.runtime.prisma, await ctx.grants(), input.id, 'alert:write');
      const until = new Date(input.until);
      if (until <= new Date()) throw invalid('until', 'must be in the future');
      return changeAlert(ctx, alert, {
        transition: 'silenced',
        dryRun: input.dryRun,
        parameters: { until: input.until, reason: input.reason },
        change: { silencedUntil: until, silenceReason: input.reason },
      });
    }),

  unsilence: procedure(scoped)
    .meta({
      openapi: {
        method: 'POST',
        path: '/alerts/{id}/unsilence',
        tags: ['alerts'],
        summary: 'End an alert’s silence now: its next transitions deliver again',
      },
    })
    .input(z.object({ id: z.uuid(), dryRun: z.boolean().default(false) }))
    .output(alertView.extend({ dryRun: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const alert = await alertFor(ctx.runtime.prisma, await ctx.grants(), input.id, 'alert:write');
      if (!alert.silencedUntil || alert.silencedUntil <= new Date())
        throw invalid('id', 'names an alert that is not silenced');
      return changeAlert(ctx, alert, {
        transition: 'unsilenced',
        dryRun: input.dryRun,
        change: { silencedUntil: null, silenceReason: null },
      });
    }),
};
