// The facts of each serving node, the other half of "why is nothing moving": version, uptime, address memory
// against global-max-size, disk store use against max-disk-usage, paging and full addresses, counts and journal
// type, read live (one POST a node, plus one for the address-full policy of full addresses when there are any),
// shared through the short cache, with warnings when a limit is near or reached.
import { readAddressSettings, readNodeFacts, type RawNodeFacts } from '@/modules/platform/broker/index.ts';
import { governFields } from '@/modules/platform/governance/index.ts';
import { LiveCache } from '@/base/live-cache.ts';
import { askServingNodes, type NodeAnswer, type NodeFailure, type NodeTag } from './live-nodes.ts';
import { requireSomeAnswer, type ResourcesRuntime } from './live-read.ts';
import { addressRow, text as textOf, type AddressRow } from './resource-rows.ts';
import { RESOURCES_SETTINGS } from './resources.settings.ts';

/** The most full addresses whose policy is asked for (the answer names how many there are in all). */
const MAX_POLICY_READS = 20;

interface RawRead {
  readonly facts: RawNodeFacts;
  readonly policies: ReadonlyMap<string, string>;
}

const factsCache = new LiveCache<'facts', ReadonlyArray<NodeAnswer<RawRead>>>();

export function forgetNodeFacts(clusterId: string | undefined): void {
  factsCache.invalidate(clusterId);
}

const isFull = (address: AddressRow) => address.limitPercent >= 100 && !address.paging;

interface FactWarning {
  readonly level: 'warning' | 'danger';
  readonly code: 'memory' | 'disk' | 'paging' | 'full' | 'near-full';
  readonly message: string;
}

const num = (value: unknown): number | null => {
  const parsed = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(parsed) ? parsed : null;
};
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const mib = (bytes: number) => `${(bytes / 1_048_576).toFixed(bytes < 10_485_760 ? 1 : 0)} MiB`;
const names = (addresses: readonly { name: string }[]) =>
  addresses
    .slice(0, 5)
    .map((address) => address.name)
    .join(', ') + (addresses.length > 5 ? ` and ${String(addresses.length - 5)} more` : '');

interface Thresholds {
  readonly memoryWarnPercent: number;
  readonly diskWarnMargin: number;
}

export function factsOf(node: NodeTag, read: RawRead, thresholds: Thresholds) {
  const a = read.facts.attributes;
  const addresses = read.facts.addresses.rows.map((row) => addressRow(node, row)).filter((row) => !row.internal);
  const memoryUsed = num(a.AddressMemoryUsage);
  const memoryMax = num(a.GlobalMaxSize);
  const memoryPercent =
    num(a.AddressMemoryUsagePercentage) ??
    (memoryUsed !== null && memoryMax ? Math.round((memoryUsed / memoryMax) * 100) : null);
  const diskFraction = num(a.DiskStoreUsage);
  const diskPercent = diskFraction !== null && diskFraction >= 0 ? Math.round(diskFraction * 1000) / 10 : null;
  const diskMax = num(a.MaxDiskUsage);
  const paging = addresses.filter((address) => address.paging);
  const full = addresses.filter(isFull).map((address) => ({
    name: address.name,
    limitPercent: address.limitPercent,
    policy: read.policies.get(address.name) ?? null,
  }));
  const nearFull = addresses.filter(
    (address) => !address.paging && address.limitPercent >= thresholds.memoryWarnPercent && address.limitPercent < 100,
  );
  const warnings: FactWarning[] = [];
  if (memoryPercent !== null && memoryPercent >= thresholds.memoryWarnPercent) {
    warnings.push({
      level: memoryPercent >= 100 ? 'danger' : 'warning',
      code: 'memory',
      message: `Address memory at ${String(memoryPercent)}% of global-max-size${
        memoryUsed !== null && memoryMax ? ` (${mib(memoryUsed)} of ${mib(memoryMax)})` : ''
      }: at 100% every address pages, blocks or drops by its address-full policy.`,
    });
  }
  if (diskPercent !== null && diskMax !== null && diskMax > 0 && diskPercent >= diskMax - thresholds.diskWarnMargin) {
    warnings.push({
      level: diskPercent >= diskMax ? 'danger' : 'warning',
      code: 'disk',
      message: `Disk store ${String(diskPercent)}% used against max-disk-usage ${String(diskMax)}%: ${
        diskPercent >= diskMax ? 'the broker blocks producers now' : 'the broker blocks producers when it is reached'
      }.`,
    });
  }
  if (paging.length > 0) {
    warnings.push({
      level: 'warning',
      code: 'paging',
      message: `${String(paging.length)} address${paging.length === 1 ? ' is' : 'es are'} paging to disk: ${names(paging)}.`,
    });
  }
  for (const address of full) {
    const policy = address.policy ?? 'its address-full policy';
    const effect =
      address.policy === 'BLOCK'
        ? 'producers are blocked'
        : address.policy === 'FAIL'
          ? 'sends fail'
          : address.policy === 'DROP'
            ? 'new messages are dropped'
            : 'new messages are held back';
    warnings.push({
      level: address.policy === 'DROP' ? 'warning' : 'danger',
      code: 'full',
      message: `${address.name} is full (${String(address.limitPercent)}% of max-size, ${policy}): ${effect}.`,
    });
  }
  if (nearFull.length > 0) {
    warnings.push({
      level: 'warning',
      code: 'near-full',
      message: `Near max-size: ${names(nearFull)}.`,
    });
  }
  const uptimeMs = num(a.UptimeMillis);
  return {
    ...node,
    ok: true as const,
    failure: null,
    version: text(a.Version),
    uptimeMs,
    journalType: text(a.JournalType),
    persistenceEnabled: typeof a.PersistenceEnabled === 'boolean' ? a.PersistenceEnabled : null,
    memory: { usedBytes: memoryUsed, maxBytes: memoryMax, percent: memoryPercent },
    disk: { usedPercent: diskPercent, maxPercent: diskMax },
    connections: num(a.ConnectionCount),
    sessions: num(a.SessionCount),
    consumers: num(a.TotalConsumerCount),
    addressCount: num(a.AddressCount),
    queueCount: num(a.QueueCount),
    pagingAddresses: paging.map((address) => ({
      name: address.name,
      sizeBytes: address.sizeBytes,
      pages: address.pages,
      limitPercent: address.limitPercent,
    })),
    fullAddresses: full,
    warnings,
  };
}

type NodeFacts = ReturnType<typeof factsOf>;
type FailedNode = NodeTag & { ok: false; failure: NodeFailure };

export async function readClusterFacts(runtime: ResourcesRuntime, clusterId: string, now: () => number = Date.now) {
  const ttlMs = runtime.settings.duration(RESOURCES_SETTINGS.cacheTtl);
  const maxRows = runtime.settings.integer(RESOURCES_SETTINGS.maxRowsPerNode);
  const { facts } = await factsCache.read(clusterId, ['facts'], ttlMs, async () => ({
    facts:
      (await askServingNodes(runtime, clusterId, async (client): Promise<RawRead> => {
        const raw = await readNodeFacts(client, maxRows);
        const full = raw.addresses.rows
          .map((row) => addressRow({ nodeId: '', nodeName: '', logicalNode: '' }, row))
          .filter((address) => !address.internal && isFull(address))
          .slice(0, MAX_POLICY_READS)
          .map((address) => address.name);
        const settings =
          full.length > 0 ? await readAddressSettings(client, full) : new Map<string, Record<string, unknown>>();
        const policies = new Map(
          [...settings].map(([name, values]) => [name, textOf(values.addressFullMessagePolicy)]),
        );
        return { facts: raw, policies };
      })) ?? [],
  }));
  const thresholds = {
    memoryWarnPercent: runtime.settings.integer(RESOURCES_SETTINGS.memoryWarnPercent),
    diskWarnMargin: runtime.settings.integer(RESOURCES_SETTINGS.diskWarnMargin),
  };
  await requireSomeAnswer(runtime, clusterId, facts.value);
  const nodes: Array<NodeFacts | FailedNode> = facts.value.map((answer) =>
    answer.ok
      ? factsOf(answer.node, answer.value, thresholds)
      : { ...answer.node, ok: false as const, failure: answer.failure },
  );
  // Address names in the paging and full lists and in the warnings leave through the content policy, never in clear.
  const shown = await governFields(runtime, nodes, ['pagingAddresses', 'fullAddresses', 'warnings'] as never, {
    clear: false,
  });
  return {
    nodes: shown.rows,
    fetchedAt: new Date(facts.fetchedAt).toISOString(),
    ageMs: Math.max(0, now() - facts.fetchedAt),
  };
}
