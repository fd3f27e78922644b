// The brokerconfig module's writes: one management operation per call, alone in its POST, so the apply step's "first
// failure halts" holds (a bulk runs on after a failed item). Every object is sent whole (docs/brokerconfig-findings.md
// §2): address settings and security settings replace what is at the match, a divert update journals exactly what it
// is given, and a queue update without a filter removes it. Handed out only through `brokerWrites.config`, i.e. the
// broker command sequence's fan-out (test/architecture/broker-writes.test.ts). A bridge's password is sent and never
// shown: any error that could echo it is rewritten first.
import { ManagementError } from './management-error.ts';
import type { ManagementClient } from './management-client.ts';
import { assertConfigName } from './config-reads.ts';
import {
  ROLE_PERMISSIONS,
  type BridgeWrite,
  type ConfigRole,
  type ConfigWrite,
  type DivertWrite,
  type QueueWrite,
} from './config-snapshot.ts';

interface Operation {
  readonly signature: string;
  readonly args: readonly unknown[];
  /** A value the broker's error may quote back and nobody may read (a bridge password). */
  readonly secret?: string | undefined;
}

const HIDDEN = '********';

/**
 * Role lists are split on commas and spaces, and the broker grants manage, createAddress and deleteAddress by
 * substring: a role whose name sits inside another's would get their permissions (findings §4 e).
 */
function assertRoleNames(roles: readonly ConfigRole[]): void {
  for (const role of roles) {
    assertConfigName('role', role.name);
    if (/[,\s]/.test(role.name)) throw new RangeError(`role ${JSON.stringify(role.name)} holds a comma or a space`);
    const container = roles.find((other) => other !== role && other.name.includes(role.name));
    if (container)
      throw new RangeError(
        `role ${JSON.stringify(role.name)} is part of ${JSON.stringify(container.name)}: the broker would grant it the other's permissions`,
      );
  }
}

/** match, then one comma-joined role list per permission, then view and edit (the broker drops them anyway). */
function securityArguments(match: string, roles: readonly ConfigRole[]): string[] {
  assertRoleNames(roles);
  const lists = ROLE_PERMISSIONS.map((permission) =>
    roles
      .filter((role) => role[permission])
      .map((role) => role.name)
      .join(','),
  );
  return [match, ...lists, '', ''];
}

function divertJson(divert: DivertWrite): string {
  for (const name of [divert.name, divert.address, divert.forwardingAddress]) assertConfigName('divert name', name);
  return JSON.stringify({
    name: divert.name,
    ...(divert.routingName ? { 'routing-name': divert.routingName } : {}),
    address: divert.address,
    'forwarding-address': divert.forwardingAddress,
    exclusive: divert.exclusive,
    // Absent from an update = the filter removed, which is what a null filter means.
    ...(divert.filter !== null ? { 'filter-string': divert.filter } : {}),
    'routing-type': divert.routingType,
    ...(divert.transformerClassName
      ? { 'transformer-configuration': { 'class-name': divert.transformerClassName } }
      : {}),
  });
}

function bridgeJson(bridge: BridgeWrite): string {
  assertConfigName('bridge name', bridge.name);
  assertConfigName('bridge queue', bridge.queueName);
  const optional = (key: string, value: unknown) => (value === null || value === undefined ? {} : { [key]: value });
  return JSON.stringify({
    name: bridge.name,
    'queue-name': bridge.queueName,
    ...optional('forwarding-address', bridge.forwardingAddress),
    ...optional('filter-string', bridge.filter),
    ...(bridge.transformerClassName
      ? { 'transformer-configuration': { 'class-name': bridge.transformerClassName } }
      : {}),
    ...(bridge.staticConnectors.length > 0 ? { 'static-connectors': bridge.staticConnectors } : {}),
    ...optional('discovery-group-name', bridge.discoveryGroupName),
    ha: bridge.ha,
    'retry-interval': bridge.retryInterval,
    'retry-interval-multiplier': bridge.retryIntervalMultiplier,
    'max-retry-interval': bridge.maxRetryInterval,
    'reconnect-attempts': bridge.reconnectAttempts,
    'use-duplicate-detection': bridge.useDuplicateDetection,
    ...optional('confirmation-window-size', bridge.confirmationWindowSize),
    ...optional('producer-window-size', bridge.producerWindowSize),
    ...optional('user', bridge.user),
    ...optional('password', bridge.password),
  });
}

/** The QueueConfiguration JSON; the filter is always there, "" for none, because an update without it drops it. */
function queueJson(queue: QueueWrite): string {
  assertConfigName('queue name', queue.name);
  assertConfigName('queue address', queue.address);
  return JSON.stringify({
    name: queue.name,
    address: queue.address,
    'routing-type': queue.routingType,
    durable: queue.durable,
    'filter-string': queue.filter ?? '',
    'max-consumers': queue.maxConsumers,
    'purge-on-no-consumers': queue.purgeOnNoConsumers,
    exclusive: queue.exclusive,
    'last-value': queue.lastValue,
    ...(queue.lastValueKey !== null ? { 'last-value-key': queue.lastValueKey } : {}),
    'group-rebalance': queue.groupRebalance,
    'group-buckets': queue.groupBuckets,
    ...(queue.groupFirstKey !== null ? { 'group-first-key': queue.groupFirstKey } : {}),
    'consumers-before-dispatch': queue.consumersBeforeDispatch,
    'delay-before-dispatch': queue.delayBeforeDispatch,
    'ring-size': queue.ringSize,
    enabled: queue.enabled,
  });
}

function operationOf(write: ConfigWrite): Operation {
  switch (write.op) {
    case 'addAddressSettings':
      assertConfigName('address-setting match', write.match, true);
      return {
        signature: 'addAddressSettings(java.lang.String,java.lang.String)',
        args: [write.match, JSON.stringify(write.settings)],
      };
    case 'removeAddressSettings':
      assertConfigName('address-setting match', write.match, true);
      return { signature: 'removeAddressSettings(java.lang.String)', args: [write.match] };
    case 'addSecuritySettings':
      assertConfigName('security-setting match', write.match, true);
      return {
        signature: `addSecuritySettings(${Array(13).fill('java.lang.String').join(',')})`,
        args: securityArguments(write.match, write.roles),
      };
    case 'removeSecuritySettings':
      assertConfigName('security-setting match', write.match, true);
      return { signature: 'removeSecuritySettings(java.lang.String)', args: [write.match] };
    case 'createDivert':
      return { signature: 'createDivert(java.lang.String)', args: [divertJson(write.divert)] };
    case 'updateDivert':
      // Without it the broker journals a new random routing name, in force after the next restart.
      if (!write.divert.routingName)
        throw new RangeError(`divert ${JSON.stringify(write.divert.name)}: an update needs its live routing name`);
      return { signature: 'updateDivert(java.lang.String)', args: [divertJson(write.divert)] };
    case 'destroyDivert':
      assertConfigName('divert name', write.name);
      return { signature: 'destroyDivert(java.lang.String)', args: [write.name] };
    case 'createBridge':
      return {
        signature: 'createBridge(java.lang.String)',
        args: [bridgeJson(write.bridge)],
        secret: write.bridge.password,
      };
    case 'destroyBridge':
      assertConfigName('bridge name', write.name);
      return { signature: 'destroyBridge(java.lang.String)', args: [write.name] };
    case 'createQueue':
      return { signature: 'createQueue(java.lang.String)', args: [queueJson(write.queue)] };
    case 'updateQueue':
      return { signature: 'updateQueue(java.lang.String)', args: [queueJson(write.queue)] };
    case 'destroyQueue':
      assertConfigName('queue name', write.name);
      // Consumers are never cut off: a queue in use fails with AMQ229025, which the plan reports.
      return { signature: 'destroyQueue(java.lang.String,boolean)', args: [write.name, false] };
  }
}

/** The text with every spelling of the secret the broker could echo (raw, or escaped once or twice in JSON). */
function hide(text: string, secret: string): string {
  const escapedOnce = JSON.stringify(secret).slice(1, -1);
  const escapedTwice = JSON.stringify(escapedOnce).slice(1, -1);
  return [escapedTwice, escapedOnce, secret].reduce((hidden, form) => hidden.split(form).join(HIDDEN), text);
}

/** The same failure, told without the secret and without the original (whose message and cause may hold it). */
function withoutSecret(error: unknown, secret: string, nodeUrl: string): Error {
  if (error instanceof ManagementError)
    return new ManagementError(error.kind, hide(error.message, secret), error.nodeUrl);
  return new ManagementError(
    'broker-error',
    hide(error instanceof Error ? error.message : String(error), secret),
    nodeUrl,
  );
}

export const configWrites = {
  /** One operation, one POST; what the broker answered (the settings or queue it took), or the call's failure. */
  apply: async (client: ManagementClient, write: ConfigWrite): Promise<unknown> => {
    const operation = operationOf(write);
    const mbean = await client.brokerObjectName();
    try {
      const value = await client.callOne({
        type: 'exec',
        mbean,
        operation: operation.signature,
        arguments: operation.args,
      });
      return operation.secret ? undefined : value;
    } catch (error) {
      if (!operation.secret) throw error;
      throw withoutSecret(error, operation.secret, client.nodeKey);
    }
  },
};
