// The published plugin API, host side: the only things a plugin's process may ask the host for, each answered within
// what the plugin may see. In a request, the caller's grants bound it (a plugin never shows a viewer more than the
// viewer may see); in a job or an MCP call with no user behind it, the plugin reads as the installation does.
// Anything not listed here is refused by name — the child cannot reach the database, the brokers or the network.
import type { Database } from '@/base/db/database.ts';
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { EffectiveGrant } from '@/modules/kernel/access/index.ts';
import type { ModuleRegistry } from '@/modules/kernel/plugin/index.ts';
import { INSTALLATION_SCOPE_ID, publishSignal } from '@/modules/kernel/stream/index.ts';
import { visibleClusters } from '@/modules/platform/clusters/index.ts';
import { readQueueGrid } from '@/modules/platform/scrape/read/index.ts';
import type { PluginDatabase } from './plugin-database.ts';

const MAX_QUEUES = 5_000;

export interface HostApiContext {
  readonly db: Database;
  readonly registry: ModuleRegistry;
  readonly bus: DatabaseBus;
  readonly pluginId: string;
  /** The topics its manifest declares: the only ones it may publish. */
  readonly topics: readonly string[];
  readonly database: PluginDatabase | undefined;
  /** The grants of the user behind the call, or undefined for a job or tool call (the installation's view). */
  readonly grants: readonly EffectiveGrant[] | undefined;
}

class HostApiError extends Error {
  override readonly name = 'HostApiError';
}

const text = (value: unknown, field: string): string => {
  if (typeof value !== 'string' || value === '') throw new HostApiError(`${field} must be a non-empty string`);
  return value;
};

async function clustersFor(context: HostApiContext) {
  const everyone: EffectiveGrant[] = [{ scope: { kind: 'GLOBAL' }, permissions: ['plugins:host-read'] }];
  return visibleClusters(context.db.prisma, context.grants ?? everyone);
}

async function queuesOf(context: HostApiContext, params: Record<string, unknown>) {
  const clusterId = text(params.clusterId, 'clusterId');
  const cluster = (await clustersFor(context)).find((candidate) => candidate.id === clusterId);
  // Unknown and not visible look the same, as everywhere else.
  if (!cluster) throw new HostApiError('no such cluster');
  const query = (typeof params.query === 'object' && params.query !== null ? params.query : {}) as Record<
    string,
    unknown
  >;
  const q = typeof query.q === 'string' ? query.q : undefined;
  const { items } = await readQueueGrid(context.db, {
    clusterId,
    ...(q ? { q } : {}),
    sort: { field: 'queueName', direction: 'asc' },
    page: 1,
    pageSize: MAX_QUEUES,
  });
  return items.map((queue) => ({
    name: queue.queueName,
    address: queue.address,
    routingType: queue.routingType,
    messageCount: queue.messageCount,
    consumerCount: queue.consumerCount,
  }));
}

/** Answers one `api.host.call(method, params)` from the plugin's process. */
export async function answerHostCall(context: HostApiContext, method: string, params: unknown): Promise<unknown> {
  const given = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
  switch (method) {
    case 'clusters.list':
      return (await clustersFor(context)).map((cluster) => ({
        id: cluster.id,
        name: cluster.name,
        environment: cluster.environment,
      }));
    case 'queues.list':
      return queuesOf(context, given);
    case 'events.list': {
      // Only while the events module is on; its events pass the content policy as for any caller without clear.
      if (!context.registry.isEnabled('events')) throw new HostApiError('broker events are off in this installation');
      // api.events.list({ clusterId, kind?, limit? }) arrives as { query }.
      const query = (typeof given.query === 'object' && given.query !== null ? given.query : {}) as Record<
        string,
        unknown
      >;
      const clusterId = text(query.clusterId, 'clusterId');
      if (!(await clustersFor(context)).some((cluster) => cluster.id === clusterId))
        throw new HostApiError('no such cluster');
      const events = await import('@/modules/feature/events/index.ts');
      return events.newestGovernedEvents(context, clusterId, {
        ...(typeof query.kind === 'string' ? { kind: query.kind } : {}),
        ...(typeof query.limit === 'number' ? { limit: query.limit } : {}),
      });
    }
    case 'db.query': {
      if (!context.database) throw new HostApiError('this plugin has no database schema (it declares no migrations)');
      const params = Array.isArray(given.params) ? given.params : [];
      return context.database.query(text(given.sql, 'sql'), params);
    }
    case 'topics.publish': {
      const topic = text(given.topic, 'topic');
      if (!context.topics.includes(topic)) throw new HostApiError(`topic ${topic} is not one the manifest declares`);
      const clusterId = typeof given.clusterId === 'string' ? given.clusterId : INSTALLATION_SCOPE_ID;
      await publishSignal(context.bus, topic, clusterId);
      return { published: true };
    }
    default:
      throw new HostApiError(`the plugin API has no method ${method}`);
  }
}
