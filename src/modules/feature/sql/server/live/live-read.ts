// The live source: fan out to every serving node that holds a queue of the matched addresses, push down what the
// broker's filter syntax can express (one management POST per node per page: one browse per queue in it), govern
// what comes back, evaluate the rest of the WHERE in the service, sort and cut. Every bound reached is said in words.
import type { Database, PrismaClient } from '@/base/db/database.ts';
import type { DatabaseBus } from '@/base/db/bus.ts';
import { ProblemError } from '@/modules/kernel/core/index.ts';
import {
  browseQueues,
  contentOfBrowsed,
  readManagementLimits,
  reservedAddressReason,
} from '@/modules/platform/broker/index.ts';
import { loadCommandTargets, managementClientFor, reservedAddressesOf } from '@/modules/platform/clusters/index.ts';
import { governMessages, type Governed, type GovernedMessage } from '@/modules/platform/governance/index.ts';
import { readQueuesOnAddresses, type NodeQueue } from '@/modules/platform/scrape/read/index.ts';
import { addressPatternRegex } from '../address-pattern.ts';
import { boundWords, type BoundReached, type QueryBounds } from '../bounds.ts';
import { rowOfGoverned } from '../governed-row.ts';
import type { MessageRow } from '../message-row.ts';
import { splitForBroker } from '../query/pushdown.ts';
import { matches } from '../query/evaluate.ts';
import type { QueryPlan } from '../query/plan.ts';
import { finishRows } from '../rows.ts';

/** Messages asked of each queue per POST. */
const PAGE_SIZE = 100;
/** Queues service-owned or broker-internal: never read by a query (a capture queue holds copies of other addresses). */
const OWN_PREFIX = 'flotilla.';

export interface LiveReadRuntime {
  readonly db: Database;
  readonly prisma: PrismaClient;
  readonly bus: DatabaseBus;
  readonly settings: { value(key: string): unknown };
}

interface NodeOutcome {
  readonly nodeId: string;
  readonly nodeName: string;
  readonly queues: number;
  readonly posts: number;
  /** Why the node (or some of its queues) could not be read. */
  readonly errors: string[];
}

export interface LiveReadAnswer {
  readonly rows: MessageRow[];
  readonly scanned: number;
  readonly bounds: BoundReached[];
  readonly selector: string | null;
  readonly residual: boolean;
  readonly nodes: NodeOutcome[];
  /** Queue listings come from the last sweep: a queue made since then is not read. */
  readonly queuesAsOf: string | null;
  readonly governed: Array<Governed<GovernedMessage>>;
}

interface Scan {
  scanned: number;
  readonly rows: MessageRow[];
  readonly governed: Array<Governed<GovernedMessage>>;
  stopped: 'scan-cap' | 'row-cap' | 'timeout' | undefined;
}

export async function readLive(
  runtime: LiveReadRuntime,
  input: { clusterId: string; plan: QueryPlan; clear: boolean; bounds: QueryBounds },
): Promise<LiveReadAnswer> {
  const started = Date.now();
  const found = await loadCommandTargets(runtime.prisma, input.clusterId);
  if (!found)
    throw new ProblemError({ type: 'not-found', title: 'Not found', status: 404, detail: 'No such cluster.' });
  const reserved = await reservedAddressesOf(runtime.prisma, input.clusterId);
  const listed = await readQueuesOnAddresses(runtime.db, {
    clusterId: input.clusterId,
    addressRegex: addressPatternRegex(input.plan.addressPattern),
    limit: input.bounds.targetCap * 4,
  });
  const serving = new Map(found.targets.map((target) => [target.nodeId, target]));
  const readable = listed.queues.filter(
    (queue) =>
      serving.has(queue.nodeId) &&
      !queue.queueName.startsWith(OWN_PREFIX) &&
      !queue.address.startsWith(OWN_PREFIX) &&
      reservedAddressReason(queue.address, reserved) === undefined &&
      reservedAddressReason(queue.queueName, reserved) === undefined,
  );
  const chosen = readable.slice(0, input.bounds.targetCap);
  const bounds: BoundReached[] = [];
  const totalTargets = Math.max(readable.length, listed.total > listed.queues.length ? listed.total : 0);
  if (chosen.length < totalTargets)
    bounds.push({ bound: 'target-cap', words: boundWords.targetCap(chosen.length, totalTargets) });

  const { selector, residual } = splitForBroker(input.plan.where, { pushProperties: input.clear });
  // With ORDER BY every match is needed before the first row is known; without, the first matches are the answer.
  const wanted = Math.min(input.plan.limit ?? input.bounds.rowCap, input.bounds.rowCap);
  const stopAtRows = input.plan.orderBy.length === 0 ? wanted + 1 : Number.POSITIVE_INFINITY;
  const scan: Scan = { scanned: 0, rows: [], governed: [], stopped: undefined };
  const deadline = started + input.bounds.timeoutMs;

  const byNode = new Map<string, NodeQueue[]>();
  for (const queue of chosen) byNode.set(queue.nodeId, [...(byNode.get(queue.nodeId) ?? []), queue]);
  const limits = readManagementLimits((key) => runtime.settings.value(key));
  const nodes = await Promise.all(
    [...byNode].map(async ([nodeId, queues]): Promise<NodeOutcome> => {
      const target = serving.get(nodeId);
      if (!target) return { nodeId, nodeName: nodeId, queues: queues.length, posts: 0, errors: ['not serving'] };
      const outcome = { nodeId, nodeName: target.nodeName, queues: queues.length, posts: 0, errors: [] as string[] };
      const client = managementClientFor(nodeId, target.endpoint, limits);
      let remaining = queues.map((queue) => ({
        address: queue.address,
        queue: queue.queueName,
        routingType: queue.routingType,
      }));
      for (let page = 1; remaining.length > 0; page += 1) {
        if (scan.stopped) break;
        if (Date.now() >= deadline) {
          scan.stopped = 'timeout';
          break;
        }
        outcome.posts += 1;
        let results;
        try {
          results = await browseQueues(client, remaining, { page, pageSize: PAGE_SIZE, filter: selector ?? undefined });
        } catch (error) {
          outcome.errors.push(error instanceof Error ? error.message : String(error));
          break;
        }
        const next: typeof remaining = [];
        for (const result of results) {
          if (!result.ok) {
            outcome.errors.push(`${result.target.queue}: ${result.error.message}`);
            continue;
          }
          await admit(runtime, scan, result.messages, {
            address: result.target.address,
            queue: result.target.queue,
            node: target.nodeName,
            clear: input.clear,
            residual,
            scanCap: input.bounds.scanCap,
            stopAtRows,
          });
          if (result.messages.length === PAGE_SIZE) next.push(result.target);
        }
        remaining = next;
      }
      return outcome;
    }),
  );

  if (scan.stopped === 'scan-cap') bounds.push({ bound: 'scan-cap', words: boundWords.scanCap(scan.scanned) });
  if (scan.stopped === 'timeout')
    bounds.push({ bound: 'timeout', words: boundWords.timeout(Date.now() - started, scan.scanned) });
  const finished = finishRows(scan.rows, input.plan, input.bounds.rowCap);
  if (finished.cutByRowCap) bounds.push({ bound: 'row-cap', words: boundWords.rowCap(input.bounds.rowCap) });
  const failedEverywhere = nodes.length > 0 && nodes.every((node) => node.errors.length > 0 && node.posts <= 1);
  if (failedEverywhere && scan.scanned === 0)
    throw new ProblemError({
      type: 'live-read-failed',
      title: 'No node answered the read',
      status: 502,
      detail: nodes.map((node) => `${node.nodeName}: ${node.errors[0] ?? ''}`).join('; '),
    });
  return {
    rows: finished.rows,
    scanned: scan.scanned,
    bounds,
    selector,
    residual: residual !== null,
    nodes,
    queuesAsOf: chosen.map((queue) => queue.scrapedAt).sort()[0] ?? null,
    governed: scan.governed,
  };
}

async function admit(
  runtime: LiveReadRuntime,
  scan: Scan,
  messages: ReadonlyArray<{ messageId: string; raw: Record<string, unknown> }>,
  place: {
    address: string;
    queue: string;
    node: string;
    clear: boolean;
    residual: ReturnType<typeof splitForBroker>['residual'];
    scanCap: number;
    stopAtRows: number;
  },
): Promise<void> {
  const room = Math.max(0, place.scanCap - scan.scanned);
  const taken = messages.slice(0, room);
  scan.scanned += taken.length;
  if (taken.length < messages.length) scan.stopped = 'scan-cap';
  const contents = taken.map((message) => {
    const content = contentOfBrowsed(message.raw);
    return { address: place.address, headers: content.headers, properties: content.properties, body: content.body };
  });
  const governed = await governMessages(runtime, contents, { clear: place.clear });
  const now = new Date().toISOString();
  governed.forEach((one, index) => {
    const row = rowOfGoverned(
      {
        id: taken[index]?.messageId ?? '',
        address: place.address,
        queue: place.queue,
        node: place.node,
        fallbackTime: now,
      },
      one.value,
    );
    if (place.residual && !matches(place.residual, row)) return;
    scan.rows.push(row);
    scan.governed.push(one);
  });
  if (scan.rows.length >= place.stopAtRows) scan.stopped ??= 'row-cap';
}
