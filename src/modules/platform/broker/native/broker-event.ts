// A management notification from a broker, normalised: the fields every consumer needs lifted out and
// typed, everything else kept with its AMQP type. Names follow Artemis' ManagementHelper.HDR_* headers.
import type { TypedValue } from './typed-value.ts';

/** CoreNotificationType names; Artemis sends the name as a string in `_AMQ_NotifType`. */
export type NotificationKind =
  | 'BINDING_ADDED'
  | 'BINDING_REMOVED'
  | 'BINDING_UPDATED'
  | 'CONSUMER_CREATED'
  | 'CONSUMER_CLOSED'
  | 'CONSUMER_SLOW'
  | 'SECURITY_AUTHENTICATION_VIOLATION'
  | 'SECURITY_PERMISSION_VIOLATION'
  | 'DISCOVERY_GROUP_STARTED'
  | 'DISCOVERY_GROUP_STOPPED'
  | 'BROADCAST_GROUP_STARTED'
  | 'BROADCAST_GROUP_STOPPED'
  | 'BRIDGE_STARTED'
  | 'BRIDGE_STOPPED'
  | 'CLUSTER_CONNECTION_STARTED'
  | 'CLUSTER_CONNECTION_STOPPED'
  | 'ACCEPTOR_STARTED'
  | 'ACCEPTOR_STOPPED'
  | 'PROPOSAL'
  | 'PROPOSAL_RESPONSE'
  | 'UNPROPOSAL'
  | 'ADDRESS_ADDED'
  | 'ADDRESS_REMOVED'
  | 'CONNECTION_CREATED'
  | 'CONNECTION_DESTROYED'
  | 'SESSION_CREATED'
  | 'SESSION_CLOSED'
  | 'MESSAGE_DELIVERED'
  | 'MESSAGE_EXPIRED';

export interface BrokerEvent {
  /** The notification type; a kind a newer broker invented arrives as its own name. */
  readonly kind: NotificationKind | (string & {});
  readonly nodeKey: string;
  readonly clusterKey: string;
  /** When the broker raised it (`_AMQ_NotifTimestamp`), ISO 8601. */
  readonly time: string;
  readonly address?: string;
  /** The queue (binding routing name) the notification is about. */
  readonly queue?: string;
  /** `_AMQ_ConsumerName`: the broker's numeric consumer id, as a string. */
  readonly consumerId?: string;
  readonly sessionId?: string;
  readonly connectionId?: string;
  /** Every other notification property, typed. */
  readonly properties: Readonly<Record<string, TypedValue>>;
}

const LIFTED = {
  kind: '_AMQ_NotifType',
  timestamp: '_AMQ_NotifTimestamp',
  address: '_AMQ_Address',
  queue: '_AMQ_RoutingName',
  consumerId: '_AMQ_ConsumerName',
  sessionId: '_AMQ_SessionName',
  connectionId: '_AMQ_ConnectionName',
} as const;

const LIFTED_NAMES: ReadonlySet<string> = new Set(Object.values(LIFTED));

// A session's notifications carry the broker's notification address as `_AMQ_Address` (Artemis's ServerSessionImpl
// sets it so cluster connections can route them): it is not the address the event is about, and lifted it read as
// if every session lived on `activemq.notifications`. For these kinds it stays among the properties, as sent.
const ADDRESS_IS_PLUMBING: ReadonlySet<string> = new Set(['SESSION_CREATED', 'SESSION_CLOSED']);
const LIFTED_NAMES_BUT_ADDRESS: ReadonlySet<string> = new Set(
  [...LIFTED_NAMES].filter((name) => name !== LIFTED.address),
);

function text(value: TypedValue | undefined): string | undefined {
  if (!value || value.type === 'null') return undefined;
  return typeof value.value === 'string' || typeof value.value === 'number' ? String(value.value) : undefined;
}

/** Undefined when the message is not a notification (no `_AMQ_NotifType`). */
export function brokerEventFrom(
  node: { readonly nodeKey: string; readonly clusterKey: string },
  properties: Readonly<Record<string, TypedValue>>,
  receivedAt: Date = new Date(),
): BrokerEvent | undefined {
  const kind = text(properties[LIFTED.kind]);
  if (!kind) return undefined;
  const timestamp = Number(text(properties[LIFTED.timestamp]));
  const lifted = ADDRESS_IS_PLUMBING.has(kind) ? LIFTED_NAMES_BUT_ADDRESS : LIFTED_NAMES;
  return {
    kind,
    nodeKey: node.nodeKey,
    clusterKey: node.clusterKey,
    time: new Date(Number.isFinite(timestamp) ? timestamp : receivedAt.getTime()).toISOString(),
    address: lifted.has(LIFTED.address) ? text(properties[LIFTED.address]) : undefined,
    queue: text(properties[LIFTED.queue]),
    consumerId: text(properties[LIFTED.consumerId]),
    sessionId: text(properties[LIFTED.sessionId]),
    connectionId: text(properties[LIFTED.connectionId]),
    properties: Object.fromEntries(Object.entries(properties).filter(([name]) => !lifted.has(name))),
  };
}

/**
 * The selector the subscription uses: every kind but the per-message ones (MESSAGE_DELIVERED, MESSAGE_EXPIRED),
 * which a broker only sends when told to and which would arrive once per message.
 */
const SUBSCRIBED_KINDS: readonly NotificationKind[] = [
  'BINDING_ADDED',
  'BINDING_REMOVED',
  'BINDING_UPDATED',
  'CONSUMER_CREATED',
  'CONSUMER_CLOSED',
  'CONSUMER_SLOW',
  'SECURITY_AUTHENTICATION_VIOLATION',
  'SECURITY_PERMISSION_VIOLATION',
  'DISCOVERY_GROUP_STARTED',
  'DISCOVERY_GROUP_STOPPED',
  'BROADCAST_GROUP_STARTED',
  'BROADCAST_GROUP_STOPPED',
  'BRIDGE_STARTED',
  'BRIDGE_STOPPED',
  'CLUSTER_CONNECTION_STARTED',
  'CLUSTER_CONNECTION_STOPPED',
  'ACCEPTOR_STARTED',
  'ACCEPTOR_STOPPED',
  'PROPOSAL',
  'PROPOSAL_RESPONSE',
  'UNPROPOSAL',
  'ADDRESS_ADDED',
  'ADDRESS_REMOVED',
  'CONNECTION_CREATED',
  'CONNECTION_DESTROYED',
  'SESSION_CREATED',
  'SESSION_CLOSED',
];

export function notificationSelector(kinds: readonly NotificationKind[] = SUBSCRIBED_KINDS): string {
  return `_AMQ_NotifType IN (${kinds.map((kind) => `'${kind}'`).join(',')})`;
}
