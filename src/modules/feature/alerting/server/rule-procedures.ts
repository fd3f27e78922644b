// Alert rules: listed within the caller's reach, created and changed with a dry run that answers what the rule
// would fire on now in every cluster of its scope, deleted with their alerts. Spread into alertingRouter.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { PrismaClient } from '@/base/db/database.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import { listResultSchema, notFoundProblem, pageOf, parseSort, ProblemError } from '@/modules/kernel/core/index.ts';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import {
  createRuleInput,
  listRulesInput,
  previewRuleInput,
  previewRuleOutput,
  ruleMutationOutput,
  ruleView,
  updateRuleInput,
} from './alerting.schema.ts';
import { invalid, procedure, scoped } from './alerting-procedure.ts';
import { jsonOf } from './channels.ts';
import { alertAccessOf, requireAnywhere, type AlertAccess } from './alert-access.ts';
import { listClusterLocations } from '@/modules/platform/clusters/index.ts';
import { conditionOf, observe, type EvaluationDeps } from './evaluator.ts';

type RuleRow = Awaited<ReturnType<PrismaClient['alertRule']['findUniqueOrThrow']>>;

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
  const clusters = (await listClusterLocations(deps.prisma)).filter((cluster) =>
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

/** The row a new rule (or a draft previewed) would be, with its checked parameters. */
function newRuleRow(input: z.infer<typeof previewRuleInput>, params: Record<string, unknown>): RuleRow {
  const now = new Date();
  return {
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
}

async function ruleOrThrow(prisma: PrismaClient, id: string) {
  const row = await prisma.alertRule.findUnique({ where: { id } });
  if (!row) throw new ProblemError(notFoundProblem('There is no alert rule with that id.'));
  return row;
}

export const ruleProcedures = {
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

  // The rule editor's live preview: a read, so a settled edit writes no audit row (a dry-run create did, one per
  // edit). tRPC only: a draft's nested condition does not fit a query string; REST previews with `dryRun`.
  previewRule: procedure(scoped)
    .input(previewRuleInput)
    .output(previewRuleOutput)
    .query(async ({ ctx, input }) => {
      const { prisma, registry } = ctx.runtime;
      const access = await alertAccessOf(prisma, await ctx.grants());
      access.requireTargetScope(input);
      const draft = newRuleRow(input, await checkRule(prisma, registry, input));
      return { wouldFire: await previewOf(runtimeDeps(ctx.runtime), draft, access) };
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
      const row = newRuleRow(input, params);
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
};
