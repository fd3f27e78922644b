// The fleet's dead letters. The list pages the dead-letter and expiry queues of every cluster the caller may read
// (marked by the scrape from the brokers' own address settings) and asks the brokers about the page only: one
// management POST per serving node, carrying every queue of the page on that cluster (countMessages grouped by
// _AMQ_ORIG_ADDRESS, and FirstMessageTimestamp), summed over the nodes, and kept for a few seconds until the
// cluster's next `queues` signal (dead-letter-counts.ts). The redrive sends the messages of many
// dead-letter queues back to where they died, whole or one original address at a time, as ONE broker command: its
// estimate is one counting POST per node for every item, so a dry run over fifty queues costs a POST a node.
import { ProblemError, type RequestContext } from '@/modules/kernel/core/index.ts';
import {
  countQueueMessages,
  listMessageIds,
  readManagementLimits,
  type QueueCount,
  type QueueRef,
} from '@/modules/platform/broker/index.ts';
import {
  loadCommandTargets,
  managementClientFor,
  nodeFailureOf,
  visibleClusters,
} from '@/modules/platform/clusters/index.ts';
import { runBrokerCommand, type CommandResult } from '@/modules/platform/commands/index.ts';
import {
  deadLetterStatusesOf,
  queuesNamed,
  readDeadLetterQueues,
  type DeadLetterQuery,
} from '@/modules/platform/scrape/read/index.ts';
import { keptCounts, type ClusterCount, type NodeFailureRow } from './dead-letter-counts.ts';
import { originalAddressFilter, refOf, type QueueActionRuntime } from './queue-actions.ts';
import { TOP_ORIGINAL_ADDRESSES } from './dead-letters.schema.ts';
import { QUEUES_SETTINGS } from './queues.settings.ts';

const ORIGINAL_ADDRESS = '_AMQ_ORIG_ADDRESS';

type Grants = Parameters<typeof visibleClusters>[1];

export interface DeadLettersQuery extends DeadLetterQuery {
  /** Only this cluster. */
  readonly cluster?: string | undefined;
}

/** Every serving node of one cluster counts the queues named; each node's answers (or its failure). */
async function countOnCluster(
  runtime: QueueActionRuntime,
  cluster: { id: string; name: string },
  refs: readonly QueueRef[],
): Promise<ClusterCount> {
  const failed = (nodeName: string, error: unknown, url = ''): NodeFailureRow => {
    const failure = nodeFailureOf(error, url);
    return { clusterId: cluster.id, clusterName: cluster.name, nodeName, kind: failure.kind, message: failure.message };
  };
  let found;
  try {
    found = await loadCommandTargets(runtime.prisma, cluster.id);
  } catch (error) {
    return { answers: [], failures: [failed('(every node)', error)], nodes: 1 };
  }
  if (!found) return { answers: [], failures: [], nodes: 0 };
  const limits = readManagementLimits((key) => runtime.settings.value(key));
  const requests = refs.map((ref) => ({ ref, groupBy: ORIGINAL_ADDRESS, oldest: true }));
  const outcomes = await Promise.all(
    found.targets.map(async (target) => {
      try {
        const client = managementClientFor(target.nodeId, target.endpoint, limits);
        return { ok: true as const, counts: await countQueueMessages(client, requests) };
      } catch (error) {
        return { ok: false as const, failure: failed(target.nodeName, error, target.endpoint.url) };
      }
    }),
  );
  return {
    answers: outcomes.flatMap((outcome) => (outcome.ok ? [outcome.counts] : [])),
    failures: outcomes.flatMap((outcome) => (outcome.ok ? [] : [outcome.failure])),
    nodes: found.targets.length,
  };
}

/** One queue's counts summed over the nodes that answered. */
function summed(counts: readonly (QueueCount | undefined)[]) {
  let liveCount: number | null = null;
  let oldest: number | undefined;
  const groups = new Map<string, number>();
  for (const count of counts) {
    if (count?.count === undefined) continue;
    liveCount = (liveCount ?? 0) + count.count;
    if (count.firstMessageAt !== undefined) oldest = Math.min(oldest ?? Infinity, count.firstMessageAt);
    for (const [address, value] of Object.entries(count.groups ?? {}))
      groups.set(address, (groups.get(address) ?? 0) + value);
  }
  const originalAddresses = [...groups]
    .map(([address, count]) => ({ address, count }))
    .sort((a, b) => b.count - a.count || a.address.localeCompare(b.address));
  return {
    liveCount,
    oldestMessageAt: oldest === undefined ? null : new Date(oldest).toISOString(),
    originalAddresses: originalAddresses.slice(0, TOP_ORIGINAL_ADDRESSES),
    originalAddressCount: originalAddresses.length,
  };
}

export async function listDeadLetters(runtime: QueueActionRuntime, grants: Grants, query: DeadLettersQuery) {
  const visible = await visibleClusters(runtime.prisma, grants, 'queue:read');
  const clusters = visible.filter((cluster) => query.cluster === undefined || cluster.id === query.cluster);
  const names = new Map(clusters.map((cluster) => [cluster.id, cluster.name]));
  const [page, statuses] = await Promise.all([
    readDeadLetterQueues(runtime.db, [...names.keys()], query),
    deadLetterStatusesOf(runtime.db, [...names.keys()]),
  ]);
  const ttlMs = runtime.settings.duration(QUEUES_SETTINGS.deadLetterCountsTtl);
  const byCluster = new Map<string, typeof page.items>();
  for (const item of page.items) byCluster.set(item.clusterId, [...(byCluster.get(item.clusterId) ?? []), item]);
  const counted = await Promise.all(
    [...byCluster].map(async ([clusterId, items]) => {
      const cluster = { id: clusterId, name: names.get(clusterId) ?? clusterId };
      const counts = await keptCounts(clusterId, items.map(refOf), ttlMs, (refs) =>
        countOnCluster(runtime, cluster, refs),
      );
      return { items, counts };
    }),
  );
  const rowOf = new Map(
    counted.flatMap(({ items, counts }) =>
      items.map((item, index) => {
        const kept = counts[index];
        return [
          item,
          {
            ...item,
            clusterName: names.get(item.clusterId) ?? item.clusterId,
            ...summed(kept?.perNode ?? []),
            complete: kept?.complete ?? false,
          },
        ];
      }),
    ),
  );
  const kept = counted.flatMap(({ counts }) => counts);
  // The page is as old as its oldest count; each failing read's nodes are named once.
  const fetchedAt = new Date(Math.min(Date.now(), ...kept.map((count) => count.fetchedAt))).toISOString();
  const nodeFailures = [...new Set(kept.map((count) => count.failures))].flat();
  // In the page's order (the brokers were asked cluster by cluster).
  const rows = page.items.flatMap((item) => rowOf.get(item) ?? []);
  return {
    items: rows,
    total: page.total,
    page: query.page,
    pageSize: query.pageSize,
    fetchedAt,
    unreadClusters: clusters
      .map((cluster) => ({
        clusterId: cluster.id,
        clusterName: cluster.name,
        deadLetterSettings: statuses.get(cluster.id) ?? { readAt: null, ok: false, error: null },
      }))
      .filter((cluster) => !cluster.deadLetterSettings.ok),
    nodeFailures,
  };
}

export interface RedriveInput {
  readonly clusterId: string;
  readonly items: readonly { readonly queueName: string; readonly originalAddress?: string | undefined }[];
  readonly dryRun: boolean;
  readonly override?: boolean | undefined;
}

function problem(status: number, type: string, title: string, detail: string): ProblemError {
  return new ProblemError({ type, title, status, detail });
}

/** The items once each, resolved to their queues, every one a dead-letter or expiry queue of the cluster. */
async function redriveWork(runtime: QueueActionRuntime, input: RedriveInput) {
  const seen = new Set<string>();
  const items = input.items.filter((item) => {
    const key = `${item.queueName}\u0000${item.originalAddress ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const queues = await queuesNamed(runtime.db, input.clusterId, [...new Set(items.map((item) => item.queueName))]);
  const missing = items.filter((item) => !queues.has(item.queueName)).map((item) => item.queueName);
  if (missing.length > 0) {
    throw problem(
      404,
      'queue-not-found',
      'Queue not found',
      `No node of this cluster has listed ${[...new Set(missing)].map((name) => `"${name}"`).join(', ')} (the scrape may not have seen it yet).`,
    );
  }
  const notDead = items.filter((item) => !queues.get(item.queueName)?.deadLetter).map((item) => item.queueName);
  if (notDead.length > 0) {
    throw problem(
      400,
      'not-a-dead-letter-queue',
      'Not a dead-letter queue',
      `${[...new Set(notDead)].map((name) => `"${name}"`).join(', ')} is not on an address the brokers’ settings name as dead-letter or expiry (or the settings could not be read). Retry its messages from the queue itself instead.`,
    );
  }
  return items.map((item) => {
    const queue = queues.get(item.queueName);
    if (!queue) throw new Error('resolved above');
    const filter = item.originalAddress ? originalAddressFilter(item.originalAddress) : undefined;
    return { queueName: item.queueName, originalAddress: item.originalAddress ?? null, ref: refOf(queue), filter };
  });
}

interface ItemOutcome {
  readonly index: number;
  readonly count: number | null;
  readonly leftOut?: number;
  readonly error?: string;
}

/**
 * Sends the messages of the items back to their original addresses, one broker command ('dead-letter.redrive',
 * capped): per node, one counting POST for every item; then, on each node, each item that has messages there is
 * retried (all of the queue, or the ids of the messages of its original address).
 */
export async function redriveDeadLetters(runtime: QueueActionRuntime, request: RequestContext, input: RedriveInput) {
  const work = await redriveWork(runtime, input);
  const estimates = new Map<string, (number | undefined)[]>();
  const outcomes = new Map<string, ItemOutcome[]>();
  const [first] = work;
  const result: CommandResult = await runBrokerCommand(runtime, request, {
    clusterId: input.clusterId,
    action: 'dead-letter.redrive',
    target: work.length === 1 && first ? first.queueName : `${work.length} dead-letter queue items`,
    parameters: {
      items: work.map((item) => ({
        queueName: item.queueName,
        ...(item.originalAddress ? { originalAddress: item.originalAddress } : {}),
      })),
    },
    dryRun: input.dryRun,
    override: input.override,
    capped: true,
    topic: 'queues',
    destinations: work.flatMap((item) => (item.originalAddress ? [item.originalAddress] : [])),
    estimate: async (node) => {
      const counts = await countQueueMessages(
        node.client,
        work.map((item) => ({ ref: item.ref, filter: item.filter })),
      );
      const values = counts.map((count) => count.count);
      estimates.set(node.nodeId, values);
      return values.every((value) => value === undefined)
        ? undefined
        : values.reduce<number>((sum, value) => sum + (value ?? 0), 0);
    },
    apply: async (node) => {
      const counts = estimates.get(node.nodeId) ?? [];
      const done: ItemOutcome[] = [];
      for (const [index, item] of work.entries()) {
        if (!counts[index]) continue; // not on this node, or nothing of it here
        try {
          // Messages naming a reserved original address or queue (forged) stay where they are, counted as left out.
          const { count, leftOut } = item.filter
            ? await node.writes.retryByIds(
                node.client,
                item.ref,
                await listMessageIds(node.client, item.ref, item.filter),
                node.reservedAddresses,
              )
            : await node.writes.retryAll(node.client, item.ref, node.reservedAddresses);
          done.push({ index, count, leftOut });
        } catch (error) {
          done.push({ index, count: null, error: nodeFailureOf(error, node.client.nodeKey).message });
        }
      }
      outcomes.set(node.nodeId, done);
      if (done.length > 0 && done.every((outcome) => outcome.error !== undefined)) {
        throw new Error(done.map((outcome) => outcome.error).join('; '));
      }
      const detail = done.map((outcome) => ({
        queueName: work[outcome.index]?.queueName,
        ...(work[outcome.index]?.originalAddress ? { originalAddress: work[outcome.index]?.originalAddress } : {}),
        count: outcome.count,
        ...(outcome.leftOut ? { leftOut: outcome.leftOut } : {}),
        ...(outcome.error ? { error: outcome.error } : {}),
      }));
      return { count: done.reduce((sum, outcome) => sum + (outcome.count ?? 0), 0), detail: { items: detail } };
    },
  });
  const nodeNames = new Map(result.nodes.map((node) => [node.nodeId, node.nodeName]));
  return {
    ...result,
    items: work.map((item, index) => {
      const estimated = [...estimates.values()].map((values) => values[index]).filter((value) => value !== undefined);
      const applied = [...outcomes.entries()].flatMap(([nodeId, list]) =>
        list.filter((outcome) => outcome.index === index).map((outcome) => ({ nodeId, ...outcome })),
      );
      return {
        queueName: item.queueName,
        originalAddress: item.originalAddress,
        estimate: estimated.length > 0 ? estimated.reduce((sum, value) => sum + value, 0) : null,
        redriven: result.dryRun ? null : applied.reduce((sum, outcome) => sum + (outcome.count ?? 0), 0),
        errors: applied.flatMap((outcome) =>
          outcome.error ? [`${nodeNames.get(outcome.nodeId) ?? outcome.nodeId}: ${outcome.error}`] : [],
        ),
      };
    }),
  };
}
