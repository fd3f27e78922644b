// The read tools over clusters, queues, live resources and metrics: cluster_health, list_resources, diagnose_queue,
// metric_series. Each calls the procedures REST calls (so the cluster guard and permissions are the REST ones) and
// answers a projection of its own.
import { z } from 'zod';
import { callProcedure } from './procedure-errors.ts';
import { asRow, asRows, pick, pickList } from './project.ts';
import { checkChoice, clusterIdArgument, defineTool, type McpContext, ToolFailure } from './tool-kit.ts';

const CLUSTER_FIELDS = ['id', 'name', 'environment', 'nodeCount', 'logicalNodeCount', 'failingNodeCount'];

export const clusterHealthTool = defineTool({
  name: 'cluster_health',
  module: 'clusters',
  description: () =>
    'Without clusterId: every cluster you can see, with failing nodes. With it: nodes, HA, split-brain, capabilities, queue verdict counts, open alerts.',
  arguments: { clusterId: clusterIdArgument.optional() },
  annotations: { readOnlyHint: true },
  run: async ({ clusterId }, context) => {
    if (!clusterId) {
      const list = pickList(await callProcedure(context, 'clusters.list', { pageSize: 200 }), [
        ...CLUSTER_FIELDS,
        'unservedLogicalNodeCount',
        'lastSuccessAt',
      ]);
      return { ...list, items: list.items.map((item) => ({ ...item, environment: asRow(item.environment).name })) };
    }
    const cluster = asRow(await callProcedure(context, 'clusters.get', { clusterId }));
    const nodes = asRows(asRow(await callProcedure(context, 'clusters.nodes', { clusterId })).items);
    return {
      ...pick(cluster, [...CLUSTER_FIELDS, 'splitBrain', 'unservedLogicalNodeCount', 'lastSuccessAt', 'capabilities']),
      environment: asRow(cluster.environment).name,
      nodes: nodes.map((node) =>
        pick(node, [
          'brokerName',
          'logicalNode',
          'role',
          'serving',
          'active',
          'replicaSync',
          'lastSuccessAt',
          'lastError',
        ]),
      ),
      ...(await verdictCounts(context, clusterId)),
      ...(await openAlerts(context, clusterId)),
    };
  },
});

async function verdictCounts(context: McpContext, clusterId: string) {
  if (!context.registry.isEnabled('metrics')) return {};
  const health = asRow(await callProcedure(context, 'metrics.consumerHealth', { clusterId, pageSize: 1 }));
  const counts = Object.fromEntries(Object.entries(asRow(health.counts)).filter(([, count]) => count !== 0));
  return { queueVerdicts: counts };
}

async function openAlerts(context: McpContext, clusterId: string) {
  if (!context.registry.isEnabled('alerting')) return {};
  const alerts = asRow(await callProcedure(context, 'alerting.list', { clusterId, view: 'open', pageSize: 1 }));
  return { openAlerts: alerts.total };
}

/** kind → [module, procedure, fields]. */
const KINDS = {
  nodes: ['clusters', 'clusters.nodes', ['id', 'brokerName', 'logicalNode', 'role', 'serving', 'lastError']],
  queues: [
    'queues',
    'queues.list',
    ['queueName', 'address', 'routingType', 'messageCount', 'consumerCount', 'deliveringCount', 'inRate', 'outRate'],
  ],
  addresses: ['resources', 'resources.addresses', ['name', 'routingTypes', 'queueCount', 'messageCount', 'paging']],
  consumers: ['resources', 'resources.consumers', ['id', 'queue', 'clientId', 'remoteAddress', 'delivering']],
  producers: ['resources', 'resources.producers', ['id', 'address', 'clientId', 'remoteAddress', 'sent']],
  sessions: ['resources', 'resources.sessions', ['id', 'connectionId', 'user', 'consumerCount', 'producerCount']],
  connections: ['resources', 'resources.connections', ['id', 'remoteAddress', 'clientId', 'users', 'sessionCount']],
} as const satisfies Record<string, readonly [string, string, readonly string[]]>;
type Kind = keyof typeof KINDS;
const ALL_KINDS = Object.keys(KINDS) as Kind[];

function kindsOf(context: Pick<McpContext, 'registry'>): { on: Kind[]; off: Kind[] } {
  const on = ALL_KINDS.filter((kind) => context.registry.isEnabled(KINDS[kind][0]));
  return { on, off: ALL_KINDS.filter((kind) => !on.includes(kind)) };
}

export const listResourcesTool = defineTool({
  name: 'list_resources',
  module: 'clusters',
  description: (context) => `List a cluster's ${kindsOf(context).on.join('|')} (kind), merged over nodes.`,
  arguments: {
    clusterId: clusterIdArgument,
    kind: z.string().max(40).describe('What to list'),
    q: z.string().max(200).optional().describe('Text filter'),
    page: z.number().int().min(1).optional(),
  },
  annotations: { readOnlyHint: true },
  run: async ({ clusterId, kind, q, page }, context) => {
    const { on, off } = kindsOf(context);
    const chosen = checkChoice('kind', kind, on, off);
    const [, procedure, fields] = KINDS[chosen];
    const input =
      chosen === 'nodes' ? { clusterId } : { clusterId, pageSize: 50, page: page ?? 1, ...(q ? { q } : {}) };
    const list = pickList(await callProcedure(context, procedure, input), fields);
    const items = chosen === 'nodes' && q ? list.items.filter((item) => JSON.stringify(item).includes(q)) : list.items;
    return { kind: chosen, total: list.total, items };
  },
});

export const diagnoseQueueTool = defineTool({
  name: 'diagnose_queue',
  module: 'metrics',
  description: () =>
    'Why a queue’s backlog does not drain: the consumer-health verdict (same as the console and alerts), its evidence and advice.',
  arguments: { clusterId: clusterIdArgument, queue: z.string().min(1).max(500).describe('Queue name') },
  annotations: { readOnlyHint: true },
  run: async ({ clusterId, queue }, context) => {
    const health = asRow(await callProcedure(context, 'metrics.consumerHealth', { clusterId, queue }));
    const found = asRows(health.items)[0];
    if (!found) {
      throw new ToolFailure(
        `No queue named ${JSON.stringify(queue)} in the cluster's last scrape. list_resources kind=queues shows the names.`,
      );
    }
    const evidence = asRow(found.evidence);
    return {
      ...pick(found, ['queueName', 'address', 'verdict', 'advice']),
      evidence: pick(evidence, [
        'depth',
        'inRate',
        'outRate',
        'consumers',
        'delivering',
        'paused',
        'stale',
        'samples',
        'windowMs',
        'slowConsumer',
      ]),
    };
  },
});

export const metricSeriesTool = defineTool({
  name: 'metric_series',
  module: 'metrics',
  description: () =>
    'Metric history per node: a queue’s depth, consumers, in/out rates; without queue, the cluster totals.',
  arguments: {
    clusterId: clusterIdArgument,
    queue: z.string().min(1).max(500).optional(),
    lastSeconds: z.number().int().min(60).max(2_678_400).optional().describe('Default 3600'),
    points: z.number().int().min(10).max(200).optional().describe('Default 20'),
  },
  annotations: { readOnlyHint: true },
  run: async ({ clusterId, queue, lastSeconds, points }, context) => {
    const range = { last: lastSeconds ?? 3_600, points: points ?? 20 };
    const answer = asRow(
      queue
        ? await callProcedure(context, 'metrics.queue', { clusterId, queue, ...range })
        : await callProcedure(context, 'metrics.cluster', { clusterId, ...range }),
    );
    const fields = ['t', 'depth', 'consumers', 'inRate', 'outRate', ...(queue ? [] : ['queues'])];
    const series = (value: unknown) => asRows(value).map((point) => pick(point, fields));
    return {
      ...pick(answer, ['queue', 'from', 'to', 'stepMs']),
      nodes: asRows(answer.nodes).map((node) => ({
        ...pick(node, ['brokerName', 'logicalNode']),
        points: series(node.points),
      })),
      ...(queue ? {} : { total: series(answer.total) }),
    };
  },
});
