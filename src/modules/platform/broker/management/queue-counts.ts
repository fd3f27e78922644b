// Whole-queue counts for previews and the bulk cap, many queues in one bulk POST: countMessages over the queue
// (with a filter when one is given), never a browse window; the oldest message only when asked. A queue this node
// does not have counts as absent.
import type { ManagementClient } from './management-client.ts';
import { queueObjectName, type BrowseTarget } from './management-browse.ts';

export interface CountRequest {
  readonly ref: BrowseTarget;
  /** A core filter (JMS selector); empty or absent counts every message. */
  readonly filter?: string | undefined;
  /** Also count per value of this message property (`_AMQ_ORIG_ADDRESS` for a dead-letter queue). */
  readonly groupBy?: string | undefined;
  /** Also read when the oldest message was put on the queue (a listing shows it; a preview needs only the count). */
  readonly oldest?: boolean | undefined;
}

export interface QueueCount {
  /** Undefined when the node has no such queue. */
  readonly count: number | undefined;
  readonly groups?: Readonly<Record<string, number>>;
  /** When the oldest message was put on the queue, epoch ms (no message: undefined). */
  readonly firstMessageAt?: number | undefined;
}

/** One answer per request, in order; a failing call as a whole throws (classified). */
export async function countQueueMessages(
  client: ManagementClient,
  requests: readonly CountRequest[],
): Promise<QueueCount[]> {
  if (requests.length === 0) return [];
  const broker = await client.brokerObjectName();
  const calls = requests.flatMap((request) => {
    const mbean = queueObjectName(broker, request.ref);
    const filter = request.filter?.trim() ? request.filter : null;
    const count = request.groupBy
      ? {
          type: 'exec' as const,
          mbean,
          operation: 'countMessages(java.lang.String,java.lang.String)',
          arguments: [filter ?? '', request.groupBy],
        }
      : { type: 'exec' as const, mbean, operation: 'countMessages(java.lang.String)', arguments: [filter] };
    return request.oldest ? [count, { type: 'read' as const, mbean, attribute: 'FirstMessageTimestamp' }] : [count];
  });
  const results = await client.call(calls);
  let next = 0;
  return requests.map((request) => {
    const counted = results[next++];
    const first = request.oldest ? results[next++] : undefined;
    if (!counted?.ok) {
      if (counted?.error.kind === 'not-found') return { count: undefined };
      throw counted?.error ?? new Error('the broker returned no count');
    }
    const firstMessageAt = first?.ok && typeof first.value === 'number' && first.value > 0 ? first.value : undefined;
    if (!request.groupBy) return { count: Number(counted.value), firstMessageAt };
    const groups = JSON.parse(String(counted.value)) as Record<string, number>;
    const total = Object.values(groups).reduce((sum, value) => sum + value, 0);
    return { count: total, groups, firstMessageAt };
  });
}

/** Messages per browse page when collecting ids (listMessages stops at the address's managementBrowsePageSize). */
const ID_PAGE = 1_000;

/** The ids of every message matching a filter (what a redrive by original address retries one by one). */
export async function listMessageIds(client: ManagementClient, ref: BrowseTarget, filter: string): Promise<string[]> {
  const mbean = queueObjectName(await client.brokerObjectName(), ref);
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const [result] = await client.call([
      { type: 'exec', mbean, operation: 'browse(int,int,java.lang.String)', arguments: [page, ID_PAGE, filter] },
    ]);
    if (!result?.ok) throw result?.error ?? new Error('the broker returned no messages');
    const rows = Array.isArray(result.value) ? (result.value as Array<Record<string, unknown>>) : [];
    for (const row of rows)
      if (typeof row.messageID === 'number' || typeof row.messageID === 'string') ids.push(String(row.messageID));
    if (rows.length < ID_PAGE) return ids;
  }
}
