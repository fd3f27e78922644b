// A live-through list of a cluster: the kinds it needs come from the short cache or, when stale, from one POST per
// serving node carrying all of them; the nodes' rows are merged, then filtered, sorted and paged here. A node that
// fails contributes no rows and is named with its reason; when every node fails, the answer is the classified
// problem with the capability ledger's advice and the broker configuration that fixes it.
import type { SettingsReader } from '@/modules/kernel/plugin/index.ts';
import { listEveryRow, type ListPage, type LiveListKind } from '@/modules/platform/broker/index.ts';
import { liveReadFailed } from '@/modules/platform/clusters/index.ts';
import { governFields, type Governed } from '@/modules/platform/governance/index.ts';
import { LiveCache, type CachedRead } from '@/base/live-cache.ts';
import { askServingNodes, type LiveRuntime, type NodeAnswer, type NodeFailure, type NodeTag } from './live-nodes.ts';
import { listRows, type ListRequest } from './resource-list.ts';
import { RESOURCE_KINDS, type NodePages, type ResourceKind } from './resource-kinds.ts';
import { RESOURCES_SETTINGS } from './resources.settings.ts';

export interface ResourcesRuntime extends LiveRuntime, GovernanceRuntime {
  readonly settings: LiveRuntime['settings'] & Pick<SettingsReader, 'duration' | 'integer'>;
}

type GovernanceRuntime = Parameters<typeof governFields>[0];

/** How a page leaves: masked by the content policy, or in clear for a holder of message:clear who asked. */
export interface ContentView {
  readonly clear: boolean;
}

type KindAnswers = ReadonlyArray<NodeAnswer<ListPage>>;

const listCache = new LiveCache<LiveListKind, KindAnswers>();

/** Drops what is kept of these broker lists of a cluster (a notification said they changed); all when no cluster. */
export function forgetLiveLists(clusterId: string | undefined, kinds?: readonly LiveListKind[]): void {
  listCache.invalidate(clusterId, kinds);
}

export interface NodeOutcome extends NodeTag {
  readonly ok: boolean;
  /** Rows the node gave for the kind listed. */
  readonly rows: number;
  /** Rows the node holds; more than `rows` when it holds more than resources.max-rows-per-node. */
  readonly total: number;
  readonly truncated: boolean;
  readonly failure: NodeFailure | null;
}

/** A node's outcome; the row counts come from its page when the answer is one. */
export function outcomeOf(answer: NodeAnswer<unknown>): NodeOutcome {
  if (!answer.ok) return { ...answer.node, ok: false, rows: 0, total: 0, truncated: false, failure: answer.failure };
  const page = answer.value as Partial<ListPage> | null;
  const rows = Array.isArray(page?.rows) ? page.rows.length : 0;
  const total = typeof page?.total === 'number' ? page.total : rows;
  return { ...answer.node, ok: true, rows, total, truncated: total > rows, failure: null };
}

/**
 * Every read's one rule: a node that failed is named, and only when no node answered is the read a problem —
 * each node's reason and what the ledger says of management reads.
 */
export async function requireSomeAnswer(
  runtime: LiveRuntime,
  clusterId: string,
  answers: ReadonlyArray<NodeAnswer<unknown>>,
): Promise<void> {
  if (answers.length === 0 || answers.some((answer) => answer.ok)) return;
  throw await liveReadFailed(runtime.prisma, clusterId, answers.map(outcomeOf));
}

/** The cached or freshly read answers of each broker list named. */
async function readLiveLists(
  runtime: ResourcesRuntime,
  clusterId: string,
  kinds: readonly LiveListKind[],
): Promise<Record<LiveListKind, CachedRead<KindAnswers>>> {
  const ttlMs = runtime.settings.duration(RESOURCES_SETTINGS.cacheTtl);
  const maxRows = runtime.settings.integer(RESOURCES_SETTINGS.maxRowsPerNode);
  return listCache.read(clusterId, kinds, ttlMs, async (missing) => {
    const answers =
      (await askServingNodes(runtime, clusterId, (client) => listEveryRow(client, missing, maxRows))) ?? [];
    // One call per node carried every missing kind: split the answers by kind.
    return Object.fromEntries(
      missing.map((kind) => [
        kind,
        answers.map((answer): NodeAnswer<ListPage> =>
          answer.ok ? { node: answer.node, ok: true, value: answer.value[kind] } : answer,
        ),
      ]),
    ) as unknown as Record<LiveListKind, KindAnswers>;
  });
}

/** Every node's pages of the kinds read; a node that failed any of them has none (it is named as failed). */
function nodePagesOf(reads: Record<LiveListKind, CachedRead<KindAnswers>>, kinds: readonly LiveListKind[]) {
  const byNode = new Map<string, { node: NodeTag; pages: Partial<Record<LiveListKind, ListPage>>; ok: boolean }>();
  for (const kind of kinds)
    for (const answer of reads[kind].value) {
      const entry = byNode.get(answer.node.nodeId) ?? { node: answer.node, pages: {}, ok: true };
      if (answer.ok) entry.pages[kind] = answer.value;
      else entry.ok = false;
      byNode.set(answer.node.nodeId, entry);
    }
  return [...byNode.values()].filter((entry) => entry.ok).map(({ node, pages }): NodePages => ({ node, pages }));
}

/** One kind's page from lists already read; the page's names and filters through the content policy. */
async function pageOf(
  runtime: ResourcesRuntime,
  clusterId: string,
  kind: ResourceKind,
  reads: Record<LiveListKind, CachedRead<KindAnswers>>,
  request: ListRequest<string> & ContentView,
  now: () => number,
) {
  const definition = RESOURCE_KINDS[kind];
  const listed = reads[definition.reads[0]].value;
  await requireSomeAnswer(runtime, clusterId, listed);
  const nodes = listed.map(outcomeOf);
  const fetchedAt = Math.min(...definition.reads.map((read) => reads[read].fetchedAt));
  const rows = (definition.build as (nodes: readonly NodePages[], context: object) => Array<{ key: string }>)(
    nodePagesOf(reads, definition.reads),
    { now: now(), slowAfterMs: runtime.settings.duration(RESOURCES_SETTINGS.slowConsumerAfter) },
  );
  const { items, total } = listRows(rows, definition.list as never, request);
  // Only the page leaves, so only the page is governed: a list of 100,000 rows costs a scan of one page's names.
  const shown = await governFields(runtime, items, definition.content as never, { clear: request.clear });
  return {
    items: shown.rows,
    governed: shown.governed as Array<Governed<unknown>>,
    total,
    page: request.page,
    pageSize: request.pageSize,
    fetchedAt: new Date(fetchedAt).toISOString(),
    ageMs: Math.max(0, now() - fetchedAt),
    nodes,
  };
}

export async function listLive(
  runtime: ResourcesRuntime,
  clusterId: string,
  kind: ResourceKind,
  request: ListRequest<string> & ContentView,
  now: () => number = Date.now,
) {
  const reads = await readLiveLists(runtime, clusterId, RESOURCE_KINDS[kind].reads);
  return pageOf(runtime, clusterId, kind, reads, request, now);
}

/** Several kinds' pages from one read (a connection's page): one call per node carries every list they need. */
export async function listsLive<Kind extends ResourceKind>(
  runtime: ResourcesRuntime,
  clusterId: string,
  requests: Readonly<Record<Kind, ListRequest<string> & ContentView>>,
  now: () => number = Date.now,
) {
  const kinds = Object.keys(requests) as Kind[];
  const reads = await readLiveLists(runtime, clusterId, [
    ...new Set(kinds.flatMap((kind) => RESOURCE_KINDS[kind].reads)),
  ]);
  const pages = await Promise.all(kinds.map((kind) => pageOf(runtime, clusterId, kind, reads, requests[kind], now)));
  return Object.fromEntries(kinds.map((kind, index) => [kind, pages[index]])) as Record<
    Kind,
    Awaited<ReturnType<typeof pageOf>>
  >;
}
