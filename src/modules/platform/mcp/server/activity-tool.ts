// activity_log: what happened, from one of three sources behind the `source` discriminator: the audit log (who did
// what, every token call included), a cluster's broker notifications, or alerts. Sources of disabled features are
// refused by name like an unknown one.
import { z } from 'zod';
import { callProcedure } from './procedure-errors.ts';
import { pickList } from './project.ts';
import { checkChoice, clusterIdArgument, defineTool, type McpContext, requireArgument } from './tool-kit.ts';

const SOURCES = { audit: 'audit', events: 'events', alerts: 'alerting' } as const;
type Source = keyof typeof SOURCES;

function sourcesOf(context: Pick<McpContext, 'registry'>): { on: Source[]; off: Source[] } {
  const all = Object.keys(SOURCES) as Source[];
  const on = all.filter((source) => context.registry.isEnabled(SOURCES[source]));
  return { on, off: all.filter((source) => !on.includes(source)) };
}

export const activityLogTool = defineTool({
  name: 'activity_log',
  module: 'audit',
  description: (context) =>
    `Recent activity, newest first. source: ${sourcesOf(context).on.join('|')}; events needs clusterId.`,
  arguments: {
    source: z.string().max(40),
    clusterId: clusterIdArgument.optional(),
    q: z.string().max(200).optional().describe('Text filter'),
    page: z.number().int().min(1).optional(),
  },
  annotations: { readOnlyHint: true },
  run: async ({ source, clusterId, q, page }, context) => {
    const { on, off } = sourcesOf(context);
    const chosen = checkChoice('source', source, on, off);
    const common = { page: page ?? 1, pageSize: 25, ...(q ? { q } : {}) };
    if (chosen === 'audit') {
      const list = pickList(
        await callProcedure(context, 'audit.list', { ...common, ...(clusterId ? { clusterId } : {}) }),
        ['startedAt', 'actor', 'action', 'target', 'clusterName', 'outcome', 'dryRun', 'error'],
      );
      return { source: chosen, ...list };
    }
    if (chosen === 'events') {
      const cluster = requireArgument(clusterId, 'source=events needs clusterId (cluster_health lists them).');
      const list = pickList(await callProcedure(context, 'events.list', { ...common, clusterId: cluster }), [
        'seq',
        'receivedAt',
        'kind',
        'brokerName',
        'address',
        'queue',
        'remoteAddress',
        'user',
      ]);
      return { source: chosen, ...list };
    }
    const list = pickList(
      await callProcedure(context, 'alerting.list', { ...common, view: 'all', ...(clusterId ? { clusterId } : {}) }),
      ['rule', 'severity', 'subject', 'state', 'since', 'resolvedAt', 'lastValue', 'acknowledgedBy'],
    );
    return { source: chosen, ...list };
  },
});
