import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { PrismaClient } from '@/base/db/database.ts';
import { moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import {
  listResultSchema,
  notFoundProblem,
  pageOf,
  parseSort,
  ProblemError,
  validationProblem,
} from '@/modules/kernel/core/index.ts';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import {
  alertView,
  channelView,
  createChannelInput,
  createRuleInput,
  deliveryView,
  listAlertsInput,
  listChannelsInput,
  listRulesInput,
  ruleMutationOutput,
  ruleView,
  updateChannelInput,
  updateRuleInput,
} from './alerting.schema.ts';
import { alertingReads } from './alerting-reads.ts';
import { jsonOf, sealChannelConfig, sendTo } from './channels.ts';
import { alertAccessOf, requireAnywhere, type AlertAccess } from './alert-access.ts';
import { clusterLocations, conditionOf, observe, type EvaluationDeps } from './evaluator.ts';
import { announceTransitions, cancelPendingDeliveries, recordUserTransition } from './transitions.ts';

const procedure = moduleProcedure('alerting');
// Rules and alerts are scoped (alert-access.ts): their procedures check the permission where the rule or alert
// lives. Channels are installation-wide, so changing one needs alert:write everywhere.
const scoped = 'authenticated' as const;
const write = { permission: 'alert:write' } as const;
const iso = (date: Date | null) => date?.toISOString() ?? null;

type RuleRow = Awaited<ReturnType<PrismaClient['alertRule']['findUniqueOrThrow']>>;
type AlertRow = Awaited<ReturnType<PrismaClient['alert']['findUniqueOrThrow']>>;

function toRuleView(row: RuleRow): z.infer<typeof ruleView> {
  return {
    id: row.id,
    name: row.name,
    condition: { kind: row.conditionKind, params: (row.params ?? {}) as Record<string, unknown> },
    clusterId: row.clusterId,
    environmentId: row.environmentId,
    pattern: row.pattern,
    severity: row.severity,
    forSeconds: row.forSeconds,
    labels: (row.labels ?? {}) as Record<string, string>,
    channelIds: row.channelIds,
    enabled: row.enabled,
    builtIn: row.builtIn,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

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

const invalid = (field: string, message: string) =>
  new ProblemError(validationProblem([{ field, message }], `${field} ${message}.`));

/** Refuses an unknown condition, parameters its schema refuses, and channels that do not exist. */
async function checkRule(
  prisma: PrismaClient,
  registry: ModuleRegistry,
  rule: { condition: { kind: string; params: Record<string, unknown> }; channelIds: readonly string[] },
): Promise<Record<string, unknown>> {
  const condition = await conditionOf(registry, rule.condition.kind);
  if (!condition) throw invalid('condition.kind', `names no condition an enabled module contributes`);
  const parsed = condition.params.safeParse(rule.condition.params);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw invalid(
      `condition.params${first?.path.length ? `.${first.path.join('.')}` : ''}`,
      first?.message ?? 'invalid',
    );
  }
  const channels = await prisma.alertChannel.count({ where: { id: { in: [...rule.channelIds] } } });
  if (channels !== new Set(rule.channelIds).size) throw invalid('channelIds', 'names a channel that does not exist');
  return parsed.data as Record<string, unknown>;
}

/** What a rule would fire on now in every cluster of its scope (before any for-duration). */
async function previewOf(deps: EvaluationDeps, rule: RuleRow, access: AlertAccess) {
  const readable = access.clustersWith('alert:read');
  const clusters = (await clusterLocations(deps.prisma)).filter((cluster) =>
    !readable.has(cluster.id)
      ? false
      : rule.clusterId
        ? cluster.id === rule.clusterId
        : rule.environmentId
          ? cluster.environmentId === rule.environmentId
          : true,
  );
  const firing: { clusterId: string; cluster: string; subject: string; value: number | null }[] = [];
  for (const cluster of clusters) {
    const results = (await observe(deps, rule, cluster.id, new Date())) ?? [];
    for (const result of results.filter((candidate) => candidate.firing)) {
      firing.push({ clusterId: cluster.id, cluster: cluster.name, subject: result.subject, value: result.value });
    }
  }
  return firing;
}

const runtimeDeps = (runtime: { db: EvaluationDeps['db']; prisma: PrismaClient; registry: ModuleRegistry }) => ({
  db: runtime.db,
  prisma: runtime.prisma,
  registry: runtime.registry,
});

async function ruleOrThrow(prisma: PrismaClient, id: string) {
  const row = await prisma.alertRule.findUnique({ where: { id } });
  if (!row) throw new ProblemError(notFoundProblem('There is no alert rule with that id.'));
  return row;
}

async function channelOrThrow(prisma: PrismaClient, id: string) {
  const row = await prisma.alertChannel.findUnique({ where: { id } });
  if (!row) throw new ProblemError(notFoundProblem('There is no notification channel with that id.'));
  return row;
}

async function alertOrThrow(prisma: PrismaClient, id: string) {
  const row = await prisma.alert.findUnique({
    where: { id },
    include: { rule: { select: { name: true, severity: true } } },
  });
  if (!row) throw new ProblemError(notFoundProblem('There is no alert with that id.'));
  return row;
}

const toChannelView = (row: { id: string; name: string; kind: string; target: string; createdAt: Date }) => ({
  id: row.id,
  name: row.name,
  kind: row.kind,
  target: row.target,
  createdAt: row.createdAt.toISOString(),
});

export const alertingRouter = router({
  ...alertingReads,

  listRules: procedure(scoped)
    .meta({ openapi: { method: 'GET', path: '/alerts/rules', tags: ['alerts'], summary: 'Alert rules' } })
    .input(listRulesInput)
    .output(listResultSchema(ruleView))
    .query(async ({ ctx, input }) => {
      const grants = await ctx.grants();
      requireAnywhere(grants, 'alert:read');
      const access = await alertAccessOf(ctx.runtime.prisma, grants);
      const environments = await ctx.runtime.prisma.alertRule.findMany({
        where: { clusterId: null, environmentId: { not: null } },
        distinct: ['environmentId'],
        select: { environmentId: true },
      });
      const readableEnvironments = environments
        .map((rule) => rule.environmentId as string)
        .filter((environmentId) => access.onScope({ clusterId: null, environmentId }, 'alert:read'));
      const where = {
        ...(input.q ? { name: { contains: input.q, mode: 'insensitive' as const } } : {}),
        OR: [
          { clusterId: { in: [...access.clustersWith('alert:read')] } },
          { clusterId: null, environmentId: { in: readableEnvironments } },
          ...(access.onScope({ clusterId: null, environmentId: null }, 'alert:read')
            ? [{ clusterId: null, environmentId: null }]
            : []),
        ],
      };
      const { field, direction } = parseSort<string>(input.sort);
      const [rows, total] = await Promise.all([
        ctx.runtime.prisma.alertRule.findMany({
          where,
          orderBy: [{ [field]: direction }, { id: 'asc' }],
          skip: (input.page - 1) * input.pageSize,
          take: input.pageSize,
        }),
        ctx.runtime.prisma.alertRule.count({ where }),
      ]);
      return pageOf(rows.map(toRuleView), total, input.page, input.pageSize);
    }),

  createRule: procedure(scoped)
    .meta({
      openapi: {
        method: 'POST',
        path: '/alerts/rules',
        tags: ['alerts'],
        summary: 'Create an alert rule; a dry run answers what it would fire on now',
      },
    })
    .input(createRuleInput)
    .output(ruleMutationOutput)
    .mutation(async ({ ctx, input }) => {
      const { prisma, registry } = ctx.runtime;
      const access = await alertAccessOf(prisma, await ctx.grants());
      access.requireTargetScope(input);
      const params = await checkRule(prisma, registry, input);
      const now = new Date();
      const row: RuleRow = {
        id: randomUUID(),
        name: input.name,
        conditionKind: input.condition.kind,
        params: params as RuleRow['params'],
        clusterId: input.clusterId,
        environmentId: input.environmentId,
        pattern: input.pattern,
        severity: input.severity,
        forSeconds: input.forSeconds,
        labels: input.labels,
        channelIds: input.channelIds,
        enabled: input.enabled,
        builtIn: null,
        createdAt: now,
        updatedAt: now,
      };
      await audited(
        prisma,
        ctx.request,
        { action: 'alert.rule.create', target: input.name, parameters: { ...toRuleView(row) }, dryRun: input.dryRun },
        async (tx) => {
          if (!input.dryRun)
            await tx.alertRule.create({ data: { ...row, params: jsonOf(params), labels: input.labels } });
          return { result: undefined };
        },
      );
      const wouldFire = input.dryRun ? await previewOf(runtimeDeps(ctx.runtime), row, access) : null;
      return { rule: toRuleView(row), dryRun: input.dryRun, wouldFire };
    }),

  updateRule: procedure(scoped)
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/alerts/rules/{id}',
        tags: ['alerts'],
        summary: 'Change an alert rule (built-in ones too); a dry run answers what it would fire on now',
      },
    })
    .input(updateRuleInput)
    .output(ruleMutationOutput)
    .mutation(async ({ ctx, input }) => {
      const { prisma, registry } = ctx.runtime;
      const existing = await ruleOrThrow(prisma, input.id);
      const access = await alertAccessOf(prisma, await ctx.grants());
      access.requireOnRule(existing, 'alert:write');
      const condition = input.condition ?? {
        kind: existing.conditionKind,
        params: (existing.params ?? {}) as Record<string, unknown>,
      };
      const channelIds = input.channelIds ?? existing.channelIds;
      const params = await checkRule(prisma, registry, { condition, channelIds });
      const row: RuleRow = {
        ...existing,
        name: input.name ?? existing.name,
        conditionKind: condition.kind,
        params: params as RuleRow['params'],
        clusterId: input.clusterId === undefined ? existing.clusterId : input.clusterId,
        environmentId: input.environmentId === undefined ? existing.environmentId : input.environmentId,
        pattern: input.pattern === undefined ? existing.pattern : input.pattern,
        severity: input.severity ?? existing.severity,
        forSeconds: input.forSeconds ?? existing.forSeconds,
        labels: input.labels ?? existing.labels,
        channelIds,
        enabled: input.enabled ?? existing.enabled,
        updatedAt: new Date(),
      };
      // Moving a rule needs the write permission where it goes as well as where it was.
      if (row.clusterId !== existing.clusterId || row.environmentId !== existing.environmentId)
        access.requireTargetScope(row);
      const changes = Object.fromEntries(Object.entries(input).filter(([key]) => key !== 'id' && key !== 'dryRun'));
      await audited(
        prisma,
        ctx.request,
        { action: 'alert.rule.update', target: existing.name, parameters: changes, dryRun: input.dryRun },
        async (tx) => {
          if (!input.dryRun) {
            await tx.alertRule.update({
              where: { id: row.id },
              data: {
                name: row.name,
                conditionKind: row.conditionKind,
                params: jsonOf(params),
                clusterId: row.clusterId,
                environmentId: row.environmentId,
                pattern: row.pattern,
                severity: row.severity,
                forSeconds: row.forSeconds,
                labels: row.labels ?? {},
                channelIds: row.channelIds,
                enabled: row.enabled,
                updatedAt: row.updatedAt,
              },
            });
          }
          return { result: undefined };
        },
      );
      const wouldFire = input.dryRun ? await previewOf(runtimeDeps(ctx.runtime), row, access) : null;
      return { rule: toRuleView(row), dryRun: input.dryRun, wouldFire };
    }),

  getRule: procedure(scoped)
    .meta({ openapi: { method: 'GET', path: '/alerts/rules/{id}', tags: ['alerts'], summary: 'One alert rule' } })
    .input(z.object({ id: z.uuid() }))
    .output(ruleView)
    .query(async ({ ctx, input }) => {
      const rule = await ruleOrThrow(ctx.runtime.prisma, input.id);
      (await alertAccessOf(ctx.runtime.prisma, await ctx.grants())).requireOnRule(rule, 'alert:read');
      return toRuleView(rule);
    }),

  deleteRule: procedure(scoped)
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/alerts/rules/{id}',
        tags: ['alerts'],
        summary: 'Delete an alert rule and its alerts',
      },
    })
    .input(z.object({ id: z.uuid(), dryRun: z.boolean().default(false) }))
    .output(z.object({ id: z.string(), deleted: z.boolean(), dryRun: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const existing = await ruleOrThrow(ctx.runtime.prisma, input.id);
      (await alertAccessOf(ctx.runtime.prisma, await ctx.grants())).requireOnRule(existing, 'alert:write');
      await audited(
        ctx.runtime.prisma,
        ctx.request,
        { action: 'alert.rule.delete', target: existing.name, dryRun: input.dryRun },
        async (tx) => {
          if (!input.dryRun) await tx.alertRule.delete({ where: { id: input.id } });
          return { result: undefined };
        },
      );
      return { id: input.id, deleted: !input.dryRun, dryRun: input.dryRun };
    }),

  listChannels: procedure(scoped)
    .meta({ openapi: { method: 'GET', path: '/alerts/channels', tags: ['alerts'], summary: 'Notification channels' } })
    .input(listChannelsInput)
    .output(listResultSchema(channelView))
    .query(async ({ ctx, input }) => {
      // Rule authors of every scope pick channels; their secrets never leave the vault.
      requireAnywhere(await ctx.grants(), 'alert:read');
      const where = input.q ? { name: { contains: input.q, mode: 'insensitive' as const } } : {};
      const { field, direction } = parseSort<string>(input.sort);
      const [rows, total] = await Promise.all([
        ctx.runtime.prisma.alertChannel.findMany({
          where,
          orderBy: [{ [field]: direction }, { id: 'asc' }],
          skip: (input.page - 1) * input.pageSize,
          take: input.pageSize,
        }),
        ctx.runtime.prisma.alertChannel.count({ where }),
      ]);
      return pageOf(rows.map(toChannelView), total, input.page, input.pageSize);
    }),

  createChannel: procedure(write)
    .meta({
      openapi: {
        method: 'POST',
        path: '/alerts/channels',
        tags: ['alerts'],
        summary: 'Create a notification channel; its URL and signing secret are sealed by the vault',
      },
    })
    .input(createChannelInput)
    .output(channelView.extend({ dryRun: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const { prisma } = ctx.runtime;
      if (await prisma.alertChannel.findUnique({ where: { name: input.name } })) {
        throw invalid('name', 'is already used by another channel');
      }
      const id = randomUUID();
      const sealed = sealChannelConfig(id, input.config);
      const row = { id, name: input.name, kind: input.config.kind, ...sealed, createdAt: new Date() };
      await audited(
        prisma,
        ctx.request,
        {
          action: 'alert.channel.create',
          target: input.name,
          parameters: { kind: input.config.kind, target: sealed.target },
          dryRun: input.dryRun,
        },
        async (tx) => {
          if (!input.dryRun) await tx.alertChannel.create({ data: { ...row, updatedAt: row.createdAt } });
          return { result: undefined };
        },
      );
      return { ...toChannelView(row), dryRun: input.dryRun };
    }),

  updateChannel: procedure(write)
    .meta({
      openapi: { method: 'PATCH', path: '/alerts/channels/{id}', tags: ['alerts'], summary: 'Change a channel' },
    })
    .input(updateChannelInput)
    .output(channelView.extend({ dryRun: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const { prisma } = ctx.runtime;
      const existing = await channelOrThrow(prisma, input.id);
      if (
        input.name &&
        input.name !== existing.name &&
        (await prisma.alertChannel.findUnique({ where: { name: input.name } }))
      ) {
        throw invalid('name', 'is already used by another channel');
      }
      const sealed = input.config ? sealChannelConfig(existing.id, input.config) : undefined;
      const row = {
        ...existing,
        name: input.name ?? existing.name,
        ...(sealed && input.config
          ? {
              kind: input.config.kind,
              target: sealed.target,
              configCipher: sealed.configCipher,
              configKeyId: sealed.configKeyId,
            }
          : {}),
      };
      await audited(
        prisma,
        ctx.request,
        {
          action: 'alert.channel.update',
          target: existing.name,
          parameters: { name: row.name, kind: row.kind, target: row.target, configChanged: Boolean(sealed) },
          dryRun: input.dryRun,
        },
        async (tx) => {
          if (!input.dryRun) {
            await tx.alertChannel.update({
              where: { id: row.id },
              data: {
                name: row.name,
                kind: row.kind,
                target: row.target,
                configCipher: row.configCipher,
                configKeyId: row.configKeyId,
                updatedAt: new Date(),
              },
            });
          }
          return { result: undefined };
        },
      );
      return { ...toChannelView(row), dryRun: input.dryRun };
    }),

  deleteChannel: procedure(write)
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/alerts/channels/{id}',
        tags: ['alerts'],
        summary: 'Delete a channel (and its delivery log); rules stop naming it',
      },
    })
    .input(z.object({ id: z.uuid(), dryRun: z.boolean().default(false) }))
    .output(z.object({ id: z.string(), deleted: z.boolean(), dryRun: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const existing = await channelOrThrow(ctx.runtime.prisma, input.id);
      await audited(
        ctx.runtime.prisma,
        ctx.request,
        { action: 'alert.channel.delete', target: existing.name, dryRun: input.dryRun },
        async (tx) => {
          if (!input.dryRun) {
            await tx.$executeRaw`UPDATE alert_rule SET channel_ids = array_remove(channel_ids, ${input.id}::uuid)
                                  WHERE ${input.id}::uuid = ANY (channel_ids)`;
            await tx.alertChannel.delete({ where: { id: input.id } });
          }
          return { result: undefined };
        },
      );
      return { id: input.id, deleted: !input.dryRun, dryRun: input.dryRun };
    }),

  testChannel: procedure(write)
    .meta({
      openapi: {
        method: 'POST',
        path: '/alerts/channels/{id}/test',
        tags: ['alerts'],
        summary: 'Send a test notification through a channel now (once, no retries) and log it',
      },
    })
    .input(z.object({ id: z.uuid(), dryRun: z.boolean().default(false) }))
    .output(z.object({ id: z.string(), delivered: z.boolean(), response: z.string().nullable(), dryRun: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const { prisma } = ctx.runtime;
      const channel = await channelOrThrow(prisma, input.id);
      const payload = {
        event: 'test' as const,
        alert: {
          id: null,
          rule: 'Test notification',
          severity: 'info',
          clusterId: null,
          subject: channel.name,
          state: 'firing',
          value: null,
          since: new Date().toISOString(),
          labels: {},
        },
      };
      // Sent before the audit transaction opens: a slow endpoint holds no transaction.
      const outcome = input.dryRun ? undefined : await sendTo(channel, payload);
      await audited(
        prisma,
        ctx.request,
        { action: 'alert.channel.test', target: channel.name, dryRun: input.dryRun },
        async (tx) => {
          if (!outcome) return { result: undefined };
          await tx.alertDelivery.create({
            data: {
              id: randomUUID(),
              channelId: channel.id,
              event: 'test',
              payload,
              attempt: 1,
              status: outcome.ok ? 'delivered' : 'failed',
              response: outcome.response,
            },
          });
          return { result: undefined, completion: outcome.ok ? {} : { outcome: 'FAILED', error: outcome.response } };
        },
      );
      return {
        id: channel.id,
        delivered: outcome?.ok ?? false,
        response: outcome?.response ?? null,
        dryRun: input.dryRun,
      };
    }),

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
      const alert = await alertOrThrow(ctx.runtime.prisma, input.id);
      (await alertAccessOf(ctx.runtime.prisma, await ctx.grants())).requireOnAlert(alert, 'alert:read');
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
      const { prisma } = ctx.runtime;
      const alert = await alertOrThrow(prisma, input.id);
      (await alertAccessOf(prisma, await ctx.grants())).requireOnAlert(alert, 'alert:write');
      const now = new Date();
      const acknowledged = { ...alert, acknowledgedBy: ctx.request.actor.name, acknowledgedAt: now };
      const range = await audited(
        prisma,
        ctx.request,
        { action: 'alert.acknowledge', target: `${alert.rule.name}: ${alert.subject}`, dryRun: input.dryRun },
        async (tx) => {
          if (input.dryRun) return { result: undefined };
          await tx.alert.update({
            where: { id: alert.id },
            data: { acknowledgedBy: acknowledged.acknowledgedBy, acknowledgedAt: now, updatedAt: now },
          });
          return { result: await recordUserTransition(tx, alert, 'acknowledged', ctx.request.actor.name, now) };
        },
      );
      await announceTransitions(ctx.runtime.bus, range);
      return { ...toAlertView(input.dryRun ? alert : acknowledged), dryRun: input.dryRun };
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
      const { prisma } = ctx.runtime;
      const alert = await alertOrThrow(prisma, input.id);
      (await alertAccessOf(prisma, await ctx.grants())).requireOnAlert(alert, 'alert:write');
      const until = new Date(input.until);
      if (until <= new Date()) throw invalid('until', 'must be in the future');
      const silenced = { ...alert, silencedUntil: until, silenceReason: input.reason };
      const range = await audited(
        prisma,
        ctx.request,
        {
          action: 'alert.silence',
          target: `${alert.rule.name}: ${alert.subject}`,
          parameters: { until: input.until, reason: input.reason },
          dryRun: input.dryRun,
        },
        async (tx) => {
          if (input.dryRun) return { result: undefined };
          const now = new Date();
          await tx.alert.update({
            where: { id: alert.id },
            data: { silencedUntil: until, silenceReason: input.reason, updatedAt: now },
          });
          await cancelPendingDeliveries(tx, alert.id, now);
          return { result: await recordUserTransition(tx, alert, 'silenced', ctx.request.actor.name, now) };
        },
      );
      await announceTransitions(ctx.runtime.bus, range);
      return { ...toAlertView(input.dryRun ? alert : silenced), dryRun: input.dryRun };
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
      const { prisma } = ctx.runtime;
      const alert = await alertOrThrow(prisma, input.id);
      (await alertAccessOf(prisma, await ctx.grants())).requireOnAlert(alert, 'alert:write');
      if (!alert.silencedUntil || alert.silencedUntil <= new Date())
        throw invalid('id', 'names an alert that is not silenced');
      const unsilenced = { ...alert, silencedUntil: null, silenceReason: null };
      const range = await audited(
        prisma,
        ctx.request,
        { action: 'alert.unsilence', target: `${alert.rule.name}: ${alert.subject}`, dryRun: input.dryRun },
        async (tx) => {
          if (input.dryRun) return { result: undefined };
          const now = new Date();
          await tx.alert.update({
            where: { id: alert.id },
            data: { silencedUntil: null, silenceReason: null, updatedAt: now },
          });
          return { result: await recordUserTransition(tx, alert, 'unsilenced', ctx.request.actor.name, now) };
        },
      );
      await announceTransitions(ctx.runtime.bus, range);
      return { ...toAlertView(input.dryRun ? alert : unsilenced), dryRun: input.dryRun };
    }),
});
