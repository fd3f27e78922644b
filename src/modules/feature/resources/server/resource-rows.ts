// The broker's rows made into Flotilla's: typed numbers and booleans (the broker sends most values as strings),
// ISO times (it sends Java's Date.toString text, or epoch milliseconds for producers), every row tagged with the
// node that served it, and each consumer and producer given the connection of its session (the broker's consumer
// row names only the session).
import type { NodeTag } from './live-nodes.ts';

type Raw = Readonly<Record<string, unknown>>;

/** A broker value as text: strings as they are, numbers and booleans written out, anything else empty. */
export const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
const orNull = (value: unknown): string | null => {
  const found = text(value);
  return found === '' || found === 'null' ? null : found;
};
const count = (value: unknown): number => {
  const parsed = Number(text(value));
  return Number.isFinite(parsed) ? parsed : 0;
};
const flag = (value: unknown): boolean => value === true || text(value).toLowerCase() === 'true';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
// Java's Date.toString: "Wed Nov 25 12:34:56 UTC 2026" in the broker JVM's zone.
const JAVA_DATE = /^\w{3} (\w{3}) (\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\S+) (\d{4})$/;
const ZONE_OFFSETS_MIN: ReadonlyMap<string, number> = new Map([
  ['UTC', 0],
  ['GMT', 0],
  ['Z', 0],
]);

/** An ISO time from the broker's text: epoch milliseconds or Java's Date.toString; null when it cannot be read. */
export function brokerTime(value: unknown): string | null {
  const raw = text(value).trim();
  if (raw === '' || raw === '0') return null;
  if (/^\d+$/.test(raw)) return new Date(Number(raw)).toISOString();
  const match = JAVA_DATE.exec(raw);
  if (match) {
    const [, month = '', day = '', hours = '', minutes = '', seconds = '', zone = '', year = ''] = match;
    const monthIndex = MONTHS.indexOf(month);
    const numeric = /^(?:GMT|UTC)([+-])(\d{2}):?(\d{2})$/.exec(zone);
    const offsetMin =
      ZONE_OFFSETS_MIN.get(zone) ??
      (numeric ? (numeric[1] === '-' ? -1 : 1) * (Number(numeric[2]) * 60 + Number(numeric[3])) : undefined);
    if (monthIndex >= 0 && offsetMin !== undefined) {
      const utc = Date.UTC(Number(year), monthIndex, Number(day), Number(hours), Number(minutes), Number(seconds));
      return new Date(utc - offsetMin * 60_000).toISOString();
    }
  }
  const parsed = Date.parse(raw);
  return Number.isNaN(parsed) ? null : new Date(parsed).toISOString();
}

const epochTime = (value: unknown): string | null => {
  const ms = count(value);
  return ms > 0 ? new Date(ms).toISOString() : null;
};

/** The session of each session id on each node: its connection (consumer and producer rows lack it). */
export type SessionIndex = ReadonlyMap<string, string>;

export function sessionIndex(sessions: ReadonlyArray<{ node: NodeTag; rows: readonly Raw[] }>): SessionIndex {
  const index = new Map<string, string>();
  for (const { node, rows } of sessions)
    for (const row of rows) index.set(`${node.nodeId}\u0000${text(row.id)}`, text(row.connectionID));
  return index;
}

const tagOf = (node: NodeTag) => ({ nodeId: node.nodeId, nodeName: node.nodeName, logicalNode: node.logicalNode });

export function consumerRow(node: NodeTag, row: Raw, sessions: SessionIndex, now: number, slowAfterMs: number) {
  const sessionId = text(row.session);
  const delivering = count(row.messagesInTransit);
  const createdAt = brokerTime(row.creationTime);
  const lastAcknowledgedAt = epochTime(row.lastAcknowledgedTime);
  // Slow: messages in flight and no acknowledgement for a while (since it attached, if it never acknowledged).
  const quietSince = Date.parse(lastAcknowledgedAt ?? createdAt ?? '') || now;
  return {
    key: `${node.nodeId}/${text(row.id)}`,
    id: text(row.id),
    ...tagOf(node),
    queue: text(row.queue),
    address: text(row.address),
    routingType: text(row.queueType).toUpperCase(),
    sessionId,
    connectionId: sessions.get(`${node.nodeId}\u0000${sessionId}`) ?? null,
    clientId: orNull(row.clientID),
    user: orNull(row.validatedUser) ?? orNull(row.user),
    protocol: text(row.protocol),
    remoteAddress: text(row.remoteAddress),
    localAddress: text(row.localAddress),
    filter: orNull(row.filter),
    delivering,
    delivered: count(row.messagesDelivered),
    acknowledged: count(row.messagesAcknowledged),
    createdAt,
    lastDeliveredAt: epochTime(row.lastDeliveredTime),
    lastAcknowledgedAt,
    status: text(row.status) || 'OK',
    slow: delivering > 0 && now - quietSince >= slowAfterMs,
  };
}
export type ConsumerRow = ReturnType<typeof consumerRow>;

export function producerRow(node: NodeTag, row: Raw, sessions: SessionIndex) {
  const sessionId = text(row.session);
  return {
    key: `${node.nodeId}/${text(row.id)}`,
    id: text(row.id),
    ...tagOf(node),
    name: text(row.name),
    address: orNull(row.address),
    sessionId,
    connectionId: sessions.get(`${node.nodeId}\u0000${sessionId}`) ?? null,
    clientId: orNull(row.clientID),
    user: orNull(row.validatedUser) ?? orNull(row.user),
    protocol: text(row.protocol),
    remoteAddress: text(row.remoteAddress),
    sent: count(row.msgSent),
    sentBytes: count(row.msgSizeSent),
    createdAt: epochTime(row.creationTime),
  };
}
export type ProducerRow = ReturnType<typeof producerRow>;

export function sessionRow(node: NodeTag, row: Raw) {
  return {
    key: `${node.nodeId}/${text(row.id)}`,
    id: text(row.id),
    ...tagOf(node),
    connectionId: text(row.connectionID),
    clientId: orNull(row.clientID),
    user: orNull(row.validatedUser) ?? orNull(row.user),
    consumerCount: count(row.consumerCount),
    producerCount: count(row.producerCount),
    createdAt: brokerTime(row.creationTime),
  };
}
export type SessionRow = ReturnType<typeof sessionRow>;

export function connectionRow(node: NodeTag, row: Raw) {
  return {
    key: `${node.nodeId}/${text(row.connectionID)}`,
    id: text(row.connectionID),
    ...tagOf(node),
    protocol: text(row.protocol),
    remoteAddress: text(row.remoteAddress),
    localAddress: text(row.localAddress),
    clientId: orNull(row.clientID),
    users: text(row.users)
      .split(',')
      .filter((user) => user !== ''),
    sessionCount: count(row.sessionCount),
    createdAt: brokerTime(row.creationTime),
  };
}
export type ConnectionRow = ReturnType<typeof connectionRow>;

/** Routing types as the broker renders them: a JSON array, or a bracketed list on older brokers. */
function routingTypes(value: unknown): string[] {
  const raw = text(value);
  try {
    const parsed: unknown = JSON.parse(raw);
    if (Array.isArray(parsed)) return parsed.map((item) => text(item).toUpperCase());
  } catch {
    // not JSON: "[ANYCAST, MULTICAST]" or "ANYCAST"
  }
  return raw
    .replace(/[[\]"]/g, '')
    .split(',')
    .map((item) => item.trim().toUpperCase())
    .filter((item) => item !== '');
}

export function addressRow(node: NodeTag, row: Raw) {
  const limit = count(row.addressLimitPercent);
  return {
    key: `${node.nodeId}/${text(row.name)}`,
    name: text(row.name),
    ...tagOf(node),
    routingTypes: routingTypes(row.routingTypes),
    queueCount: count(row.queueCount),
    internal: flag(row.internal),
    temporary: flag(row.temporary),
    autoCreated: flag(row.autoCreated),
    paused: flag(row.paused),
    messageCount: count(row.messageCount),
    routed: count(row.routedMessageCount),
    unrouted: count(row.unroutedMessageCount),
    sizeBytes: count(row.addressSize),
    limitPercent: limit,
    paging: flag(row.paging),
    pages: count(row.numberOfPages),
  };
}
export type AddressRow = ReturnType<typeof addressRow>;
