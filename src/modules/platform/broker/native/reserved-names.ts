// What no operator's message may reach or carry: the broker's own management and notification addresses, its
// internal addresses, and the property names the broker reserves for itself. A message on the management address is
// a management request run with the sender's broker rights (add a user, create an address); one on the notification
// address is read by every subscriber, Flotilla's events included, as the broker's own word; `_AMQ_ROUTE_TO`,
// `_AMQ_ORIG_ADDRESS` and their kin steer routing, duplicate detection and retries. Names compare as the broker
// compares them: exactly, case and spaces included (`activemq.management ` is another address).

/** The broker defaults (`management-address`, `management-notification-address`), reserved whatever a node says. */
const DEFAULT_MANAGEMENT_ADDRESS = 'activemq.management';
const DEFAULT_NOTIFICATION_ADDRESS = 'activemq.notifications';

/**
 * Internal names: MQTT's session and retain stores (`$sys.mqtt.*`), the internal naming prefix (cluster
 * store-and-forward, routers), mirroring and federation (`$ACTIVEMQ_ARTEMIS_MIRROR_*`, `$ACTIVEMQ_ARTEMIS_FEDERATION`).
 */
const INTERNAL_PREFIXES = ['$sys.', '$.artemis.internal.', '$ACTIVEMQ_ARTEMIS_'] as const;

/**
 * Property prefixes the broker keeps for itself: `_AMQ_*` (routing, duplicate id, original address, scheduling,
 * management requests), `__AMQ_*` (the connection id), `_HQ_*` (the HornetQ names it still maps), `__HDR_*`
 * (OpenWire's headers), `JMSX*` and `JMS_*` (JMS's own and the providers' names, `JMS_AMQP_*` in conversions).
 */
const RESERVED_PROPERTY_PREFIXES = ['_AMQ', '__AMQ', '_HQ_', '__HDR_', 'JMSX', 'JMS_'] as const;

/**
 * Why `name` would reach a reserved address, or undefined. `reserved` lists the management and notification
 * addresses the nodes reported (the defaults are always added). Besides the exact name, an acceptor may strip a
 * routing prefix it was configured with (`anycastPrefix=jms.queue.` turns `jms.queue.activemq.management` into the
 * management address) and `address::queue` names a queue on an address, so a name that ends with a reserved address,
 * or holds one before `::`, is refused too; an internal prefix is refused wherever it stands in the name.
 */
export function reservedAddressReason(name: string, reserved: readonly string[]): string | undefined {
  for (const address of reservedAddresses(reserved)) {
    if (name === address || name.endsWith(address) || name.includes(`${address}::`))
      return `"${name}" reaches the broker's own address "${address}"`;
  }
  const internal = INTERNAL_PREFIXES.find((prefix) => name.includes(prefix));
  return internal ? `"${name}" is a broker-internal name (${internal}…)` : undefined;
}

/** The defaults and the addresses the nodes reported, once each, blanks (a node not yet read) left out. */
export function reservedAddresses(reported: readonly string[]): string[] {
  return [...new Set([DEFAULT_MANAGEMENT_ADDRESS, DEFAULT_NOTIFICATION_ADDRESS, ...reported])].filter(Boolean);
}

/** Where the notification subscription listens and what the grid hides: the node's own, else the default. */
export function notificationAddressOf(reported: string | null | undefined): string {
  return reported || DEFAULT_NOTIFICATION_ADDRESS;
}

const text = (value: string) => `'${value.replace(/'/g, "''")}'`;
const likeText = (value: string) => value.replace(/'/g, "''").replace(/[!%_]/g, (character) => `!${character}`);

/**
 * Where a retry sends a message is the message's own word: the broker reads its original address and queue
 * (`_AMQ_ORIG_ADDRESS`, `_AMQ_ORIG_QUEUE`; on an AMQP message the `x-opt-ORIG-…` annotations, which a filter reads
 * as `"m._AMQ_ORIG_…"`), and a client can forge them. This core filter matches the messages whose original address
 * reaches a reserved one by the rule of `reservedAddressReason`, or whose original queue does or is one of
 * `reservedQueues` (the queues on the node's reserved addresses: a retry puts the message straight into it). Each
 * term is false, never unknown, when the property is absent, so `NOT (…)` picks every other message.
 */
export function reservedOriginFilter(reported: readonly string[], reservedQueues: readonly string[]): string {
  const patterns = [
    ...reservedAddresses(reported).flatMap((address) => [`%${likeText(address)}`, `%${likeText(address)}::%`]),
    ...INTERNAL_PREFIXES.map((prefix) => `%${likeText(prefix)}%`),
  ];
  const reaches = (field: string, extra: string[]) =>
    `(${field} IS NOT NULL AND (${[...patterns.map((pattern) => `${field} LIKE '${pattern}' ESCAPE '!'`), ...extra].join(' OR ')}))`;
  const queueIn = (field: string) =>
    reservedQueues.length ? [`${field} IN (${reservedQueues.map(text).join(', ')})`] : [];
  return [
    reaches('_AMQ_ORIG_ADDRESS', []),
    reaches('"m._AMQ_ORIG_ADDRESS"', []),
    reaches('_AMQ_ORIG_QUEUE', queueIn('_AMQ_ORIG_QUEUE')),
    reaches('"m._AMQ_ORIG_QUEUE"', queueIn('"m._AMQ_ORIG_QUEUE"')),
  ].join(' OR ');
}

/** The reserved prefix a property name starts with, or undefined. */
export function reservedPropertyPrefix(name: string): string | undefined {
  return RESERVED_PROPERTY_PREFIXES.find((prefix) => name.startsWith(prefix));
}
