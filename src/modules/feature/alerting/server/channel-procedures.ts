// Notification channels: installation-wide, their secrets sealed at rest; created, changed and deleted with a dry
// run, and sent a test message that reports the status line of what the channel answered. A channel pointing where
// alerting.allowed-networks does not reach is refused at creation and update (and its sends at every send).
// Spread into alertingRouter.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Database, PrismaClient } from '@/base/db/database.ts';
import { audited } from '@/modules/kernel/audit/index.ts';
import { listResultSchema, notFoundProblem, pageOf, parseSort, ProblemError } from '@/modules/kernel/core/index.ts';
import { channelView, createChannelInput, listChannelsInput, updateChannelInput } from './alerting.schema.ts';
import { invalid, procedure, scoped, write } from './alerting-procedure.ts';
import { checkChannelReach, sealChannelConfig, sendTo, type ChannelConfig } from './channels.ts';
import { requireAnywhere } from './alert-access.ts';
import { channelReachOf, ReachRefused } from './channel-reach.ts';
import type { SettingsReader } from '@/modules/kernel/plugin/index.ts';

async function channelOrThrow(prisma: PrismaClient, id: string) {
  const row = await prisma.alertChannel.findUnique({ where: { id } });
  if (!row) throw new ProblemError(notFoundProblem('There is no notification channel with that id.'));
  return row;
}

const toChannelView = (row: { id: string; name: string; kind: string; target: string; createdAt: Date }) => ({
  id: row.id,
  name: row.name,
  kind: row.kind,
  target: row.target,
  createdAt: row.createdAt.toISOString(),
});

/** The newest delivery of each channel named, in one read (an index walk per channel). */
async function lastDeliveries(db: Database, channelIds: readonly string[]) {
  const rows = await db.query<{ channel_id: string; status: string; event: string; response: string | null; at: Date }>(
    `SELECT d.channel_id, d.status, d.event, d.response, d.at
       FROM unnest($1::uuid[]) AS c(id)
       CROSS JOIN LATERAL (
         SELECT channel_id, status, event, response, at FROM alert_delivery
          WHERE channel_id = c.id ORDER BY at DESC LIMIT 1) AS d`,
    [channelIds],
  );
  return new Map(
    rows.map((row) => [
      row.channel_id,
      { status: row.status, event: row.event, response: row.response, at: row.at.toISOString() },
    ]),
  );
}

/** A 400 naming the host's field when the configuration points where channels may not reach (dry runs too). */
async function requireReachable(config: ChannelConfig, settings: SettingsReader): Promise<void> {
  try {
    await checkChannelReach(config, channelReachOf(settings));
  } catch (error) {
    if (!(error instanceof ReachRefused)) throw error;
    throw invalid(config.kind === 'email' ? 'config.host' : 'config.url', `is refused: ${error.message}`);
  }
}

export const channelProcedures = {
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
      const last = await lastDeliveries(
        ctx.runtime.db,
        rows.map((row) => row.id),
      );
      return pageOf(
        rows.map((row) => ({ ...toChannelView(row), lastDelivery: last.get(row.id) ?? null })),
        total,
        input.page,
        input.pageSize,
      );
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
      await requireReachable(input.config, ctx.runtime.settings);
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
      if (input.config) await requireReachable(input.config, ctx.runtime.settings);
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
      const outcome = input.dryRun ? undefined : await sendTo(channel, payload, channelReachOf(ctx.runtime.settings));
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
};
