// The resources API: live-through lists of a cluster's consumers, producers, sessions, connections and addresses
// (one management POST per serving node, shared for a few seconds, merged and paged here), one connection with
// its sessions, consumers and producers, one address in detail, and each serving node's facts.
import { guardCluster, moduleProcedure, router } from '@/modules/kernel/access/index.ts';
import { ProblemError, type RequestContext } from '@/modules/kernel/core/index.ts';
import { auditClearView, requireClearAccess, type Governed } from '@/modules/platform/governance/index.ts';
import { readAddress } from './address-detail.ts';
import { followChangeSignals } from './change-signals.ts';
import { listLive, listsLive, type ResourcesRuntime } from './live-read.ts';
import { readClusterFacts } from './node-facts.ts';
import { closeConnection, createAddress, deleteAddress } from './resource-actions.ts';
import { closeConnectionInput, createAddressInput, deleteAddressInput } from './resource-actions.schema.ts';
import { commandResultSchema } from '@/modules/platform/commands/index.ts';
import type { ResourceKind } from './resource-kinds.ts';
import {
  addressesInput,
  addressesOutput,
  addressInput,
  addressOutput,
  connectionInput,
  connectionOutput,
  connectionsInput,
  connectionsOutput,
  consumersInput,
  consumersOutput,
  factsInput,
  factsOutput,
  producersInput,
  producersOutput,
  sessionsInput,
  sessionsOutput,
} from './resources.schema.ts';

const procedure = moduleProcedure('resources');
const resourceRead = { clusterPermission: 'resource:read' } as const;
const addressWrite = { clusterPermission: 'address:write' } as const;
const connectionClose = { clusterPermission: 'connection:close' } as const;
const tags = ['resources'];

interface ListInput {
  readonly clusterId: string;
  readonly clear?: 'true' | 'false' | undefined;
  readonly q?: string | undefined;
  readonly sort: string;
  readonly page: number;
  readonly pageSize: number;
  readonly [filter: string]: unknown;
}

const LIST_KEYS = new Set(['clusterId', 'clear', 'q', 'sort', 'page', 'pageSize']);

type Runtime = ResourcesRuntime & Parameters<typeof followChangeSignals>[0];

interface Caller {
  readonly runtime: Runtime & Omit<Parameters<typeof guardCluster>[0], 'clusterId' | 'grants'>;
  readonly grants: Parameters<typeof guardCluster>[0]['grants'];
  readonly request: RequestContext;
}

/**
 * Names, filters, client ids and users leave through the content policy: masked, or in clear when a holder of
 * message:clear on the cluster asks (`clear=true`); a clear answer that showed something is audited as VIEW_CLEAR.
 */
async function contentView<Answer>(
  caller: Caller,
  input: { readonly clusterId: string; readonly clear?: 'true' | 'false' | undefined },
  what: string,
  read: (clear: boolean) => Promise<Answer & { governed: ReadonlyArray<Governed<unknown>> }>,
): Promise<Omit<Answer, 'governed'>> {
  const clear = input.clear === 'true';
  const clusterId = input.clusterId.toLowerCase();
  if (clear)
    requireClearAccess((await guardCluster({ ...caller.runtime, grants: caller.grants, clusterId })).permissions);
  const { governed, ...answer } = await read(clear);
  if (clear)
    await auditClearView(caller.runtime.prisma, caller.request, {
      target: `${what} of cluster ${clusterId}`,
      governed,
    });
  return answer;
}

/** The live list of a kind; every input key that is not a list key is one of the kind's filters. */
function liveList(caller: Caller, kind: ResourceKind, input: ListInput, defaults: Record<string, string> = {}) {
  followChangeSignals(caller.runtime);
  const filters: Record<string, string | undefined> = { ...defaults };
  for (const [key, value] of Object.entries(input))
    if (!LIST_KEYS.has(key) && typeof value === 'string') filters[key] = value;
  return contentView(caller, input, kind, (clear) =>
    listLive(caller.runtime, input.clusterId.toLowerCase(), kind, {
      q: input.q,
      sort: input.sort,
      page: input.page,
      pageSize: input.pageSize,
      filters,
      clear,
    }),
  );
}

const listMeta = (kind: ResourceKind, summary: string) => ({
  openapi: { method: 'GET' as const, path: `/clusters/{clusterId}/${kind}` as const, tags, summary },
});

export const resourcesRouter = router({
  consumers: procedure(resourceRead)
    .meta(
      listMeta(
        'consumers',
        'Consumers on every serving node: queue, session, connection, client, in flight, acknowledged',
      ),
    )
    .input(consumersInput)
    .output(consumersOutput)
    .query(({ ctx, input }) => liveList(ctx, 'consumers', input) as never),

  producers: procedure(resourceRead)
    .meta(listMeta('producers', 'Producers on every serving node: address, session, connection, client, messages sent'))
    .input(producersInput)
    .output(producersOutput)
    .query(({ ctx, input }) => liveList(ctx, 'producers', input) as never),

  sessions: procedure(resourceRead)
    .meta(listMeta('sessions', 'Sessions on every serving node with their connection and consumer/producer counts'))
    .input(sessionsInput)
    .output(sessionsOutput)
    .query(({ ctx, input }) => liveList(ctx, 'sessions', input) as never),

  connections: procedure(resourceRead)
    .meta(
      listMeta('connections', 'Client connections on every serving node: protocol, remote address, client id, users'),
    )
    .input(connectionsInput)
    .output(connectionsOutput)
    .query(({ ctx, input }) => liveList(ctx, 'connections', input) as never),

  connection: procedure(resourceRead)
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/connections/{connectionId}',
        tags,
        summary: 'One connection with its sessions, consumers and producers',
      },
    })
    .input(connectionInput)
    .output(connectionOutput)
    .query(
      ({ ctx, input }) =>
        contentView(ctx, input, `connection ${input.connectionId}`, async (clear) => {
          followChangeSignals(ctx.runtime);
          const all = { q: undefined, page: 1, pageSize: Number.MAX_SAFE_INTEGER, clear };
          const node = input.nodeId ? { node: input.nodeId } : {};
          const on = { ...node, connection: input.connectionId };
          // The connection and everything on it from one read: one call per node for all four lists.
          const { connections, sessions, consumers, producers } = await listsLive(
            ctx.runtime,
            input.clusterId.toLowerCase(),
            {
              connections: { ...all, sort: 'node', filters: node },
              sessions: { ...all, sort: 'createdAt', filters: on },
              consumers: { ...all, sort: 'queue', filters: on },
              producers: { ...all, sort: 'address', filters: on },
            },
          );
          const connection = connections.items.find(
            (row) => (row as unknown as { id: string }).id === input.connectionId,
          );
          if (!connection) {
            throw new ProblemError({
              type: 'connection-not-found',
              title: 'No such connection',
              status: 404,
              detail: `No serving node has the connection ${input.connectionId} (it may have closed).`,
            });
          }
          const fetched = [connections, sessions, consumers, producers].map((list) => Date.parse(list.fetchedAt));
          const oldest = Math.min(...fetched);
          return {
            connection,
            sessions: sessions.items,
            consumers: consumers.items,
            producers: producers.items,
            fetchedAt: new Date(oldest).toISOString(),
            ageMs: Math.max(0, Date.now() - oldest),
            governed: [connections, sessions, consumers, producers].flatMap((list) => list.governed),
          };
        }) as never,
    ),

  addresses: procedure(resourceRead)
    .meta(listMeta('addresses', 'Addresses on every serving node: routing types, queues bound, memory, paging'))
    .input(addressesInput)
    .output(addressesOutput)
    .query(({ ctx, input }) => liveList(ctx, 'addresses', input, { internal: 'false' }) as never),

  address: procedure(resourceRead)
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/addresses/{address}',
        tags,
        summary: 'One address on each serving node: its bindings and the address settings in effect',
      },
    })
    .input(addressInput)
    .output(addressOutput)
    .query(
      ({ ctx, input }) =>
        contentView(ctx, input, 'an address', (clear) =>
          readAddress(ctx.runtime, input.clusterId.toLowerCase(), input.address, clear),
        ) as never,
    ),

  facts: procedure(resourceRead)
    .meta({
      openapi: {
        method: 'GET',
        path: '/clusters/{clusterId}/node-facts',
        tags,
        summary:
          'Each serving node: version, uptime, address memory and disk against their limits, paging and full addresses, counts, journal, warnings',
      },
    })
    .input(factsInput)
    .output(factsOutput)
    .query(async ({ ctx, input }) => {
      followChangeSignals(ctx.runtime);
      const facts = await readClusterFacts(ctx.runtime, input.clusterId.toLowerCase());
      return { ...facts, nodes: facts.nodes.filter((node) => !input.nodeId || node.nodeId === input.nodeId) };
    }),

  createAddress: procedure(addressWrite)
    .meta({
      openapi: {
        method: 'POST',
        path: '/clusters/{clusterId}/addresses',
        tags,
        summary: 'Create an address on every node',
      },
    })
    .input(createAddressInput)
    .output(commandResultSchema)
    .mutation(({ ctx, input }) => createAddress(ctx.runtime, ctx.request, input)),

  deleteAddress: procedure(addressWrite)
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/clusters/{clusterId}/addresses/{address}',
        tags,
        summary: 'Delete an address on every node (with force, its queues and their messages too)',
      },
    })
    .input(deleteAddressInput)
    .output(commandResultSchema)
    .mutation(({ ctx, input }) => deleteAddress(ctx.runtime, ctx.request, { ...input, name: input.address })),

  closeConnection: procedure(connectionClose)
    .meta({
      openapi: {
        method: 'POST',
        path: '/clusters/{clusterId}/connections/{connectionId}/close',
        tags,
        summary: 'Close a client connection on the node that issued it',
      },
    })
    .input(closeConnectionInput)
    .output(commandResultSchema)
    .mutation(({ ctx, input }) => closeConnection(ctx.runtime, ctx.request, input)),
});
