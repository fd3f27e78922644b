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
  const addresses = new Set([DEFAULT_MANAGEMENT_ADDRESS, DEFAULT_NOTIFICATION_ADDRESS, ...reserved]);
  for (const address of addresses) {
    if (address === '') continue;
    if (name === address || name.endsWith(address) || name.includes(`${address}::`))
      return `"${name}" reaches the broker's own address "${address}"`;
  }
  const internal = INTERNAL_PREFIXES.find((prefix) => name.includes(prefix));
  return internal ? `"${name}" is a broker-internal name (${internal}…)` : undefined;
}

/** The reserved prefix a property name starts with, or undefined. */
export function reservedPropertyPrefix(name: string): string | undefined {
  return RESERVED_PROPERTY_PREFIXES.find((prefix) => name.startsWith(prefix));
}
