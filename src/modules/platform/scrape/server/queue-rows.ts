// A queue listing row (every value a JSON string, see docs/scrape.md) read into the columns of queue_snapshot, and
// the planning of tier C's one POST.
import type { QueueMetrics } from '../read/queue-metrics.ts';

export interface QueueRow extends QueueMetrics {
  readonly address: string;
  readonly name: string;
  readonly routingType: string;
  readonly paused: boolean | null;
  readonly durable: boolean | null;
  readonly temporary: boolean | null;
  readonly internal: boolean | null;
}

function count(value: unknown): number {
  const number = Number(value);
  return Number.isFinite(number) && number >= 0 ? Math.trunc(number) : 0;
}

function flag(value: unknown): boolean | null {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return null;
}

export function toQueueRow(raw: Record<string, unknown>): QueueRow | undefined {
  const name = typeof raw.name === 'string' ? raw.name : undefined;
  if (!name) return undefined;
  return {
    address: typeof raw.address === 'string' ? raw.address : name,
    name,
    routingType: typeof raw.routingType === 'string' ? raw.routingType : 'ANYCAST',
    messageCount: count(raw.messageCount),
    consumerCount: count(raw.consumerCount),
    deliveringCount: count(raw.deliveringCount),
    messagesAdded: count(raw.messagesAdded),
    messagesAcked: count(raw.messagesAcked),
    messagesExpired: count(raw.messagesExpired),
    messagesKilled: count(raw.messagesKilled),
    paused: flag(raw.paused),
    durable: flag(raw.durable),
    temporary: flag(raw.temporary),
    internal: flag(raw.internalQueue),
  };
}

/** Management-notification subscriptions (Flotilla's own among them) live here: plumbing, not user queues. */
const DEFAULT_NOTIFICATION_ADDRESS = 'activemq.notifications';

/**
 * Rows keyed by (address, name, routing type), the last one winning: pages requested together can overlap when
 * a queue is created between two of them, and one upsert may not touch a row twice. Subscription queues on the
 * notification address are left out: their counters move with every notification, which would make every tick a
 * queue change, and they carry the broker's events (usernames included), which no grid row may offer to browse.
 * Both the default address and the one the node is configured with (`notificationAddress`, read by tier A) count.
 */
export function queueRowsOf(rawRows: readonly Record<string, unknown>[], notificationAddress?: string): QueueRow[] {
  const hidden = new Set([DEFAULT_NOTIFICATION_ADDRESS, notificationAddress || DEFAULT_NOTIFICATION_ADDRESS]);
  const byKey = new Map<string, QueueRow>();
  for (const raw of rawRows) {
    const row = toQueueRow(raw);
    if (row && !hidden.has(row.address)) byKey.set(`${row.address}\u0000${row.name}\u0000${row.routingType}`, row);
  }
  return [...byKey.values()];
}

/**
 * Pages for tier C's one POST: enough for the largest listing seen lately plus a tenth (at least 50 queues) of
 * room for growth. A listing that outgrew them is persisted without removals; the next sweep asks for more.
 */
export function tierCPageCount(knownTotal: number, pageSize: number): number {
  const wanted = knownTotal + Math.max(50, Math.ceil(knownTotal / 10));
  return Math.max(1, Math.ceil(wanted / pageSize));
}
