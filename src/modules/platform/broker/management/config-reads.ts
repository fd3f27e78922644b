// One node's configuration as the brokerconfig module plans against it (docs/brokerconfig-findings.md §1), in at most
// two bulk POSTs: the first holds everything named before the read (queues, address names, diverts and bridges by
// pattern, the settings and roles at each requested match, the service user); the second, only when asked, the
// settings in force for the live addresses the first one showed. Every value leaves here typed: listQueues answers
// strings with "" for null, Jolokia renders Java nulls as null.
import { attributeText } from './broker-operations.ts';
import type { CallResult, JolokiaRequest, ManagementClient, PostTally } from './management-client.ts';
import { ManagementError } from './management-error.ts';
import type {
  ConfigBridge,
  ConfigDivert,
  ConfigQueue,
  ConfigReadRequest,
  ConfigRole,
  ConfigSnapshot,
  DivertRoutingType,
} from './config-snapshot.ts';
import { ROLE_PERMISSIONS } from './config-snapshot.ts';

/** One page holds every queue: the broker builds and sorts the whole list for any page anyway. */
const MAX_QUEUES = 10_000;
const NO_FILTER = JSON.stringify({ field: '', operation: '', value: '' });
const DIVERT_ATTRIBUTES = [
  'Address',
  'ForwardingAddress',
  'RoutingName',
  'Exclusive',
  'Filter',
  'RoutingType',
  'TransformerClassName',
];
const BRIDGE_ATTRIBUTES = [
  'Name',
  'QueueName',
  'ForwardingAddress',
  'FilterString',
  'TransformerClassName',
  'StaticConnectors',
  'DiscoveryGroupName',
  'HA',
  'RetryInterval',
  'RetryIntervalMultiplier',
  'MaxRetryInterval',
  'ReconnectAttempts',
  'UseDuplicateDetection',
];

/**
 * Refuses a name or match the broker could not take as given: empty, with control characters, or (for a match) a
 * `#` before the end, which the broker's match syntax rejects.
 */
export function assertConfigName(what: string, name: string, isMatch = false): void {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (name === '' || /[\u0000-\u001f\u007f]/.test(name))
    throw new RangeError(`${what} ${JSON.stringify(name)} is empty or holds control characters`);
  if (isMatch && name.includes('#') && name.indexOf('#') !== name.length - 1)
    throw new RangeError(`${what} ${JSON.stringify(name)} has "#" before its end`);
}

export function valueOf(result: CallResult | undefined, client: ManagementClient): unknown {
  if (!result) throw new ManagementError('broker-error', 'the broker returned no answer', client.nodeKey);
  if (!result.ok) throw result.error;
  return result.value;
}

export const textOrNull = (value: unknown): string | null => {
  const text = attributeText(value);
  return text === '' ? null : text;
};
export const flag = (value: unknown): boolean => value === true || attributeText(value).toLowerCase() === 'true';
export const numberOf = (value: unknown): number => Number(attributeText(value) || 0);
export const names = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(attributeText).filter((name) => name !== '') : [];

/** A JSON text the broker answered with (getAddressSettingsAsJSON, getRolesAsJSON, listUser, listQueues). */
const parsed = (value: unknown): unknown => JSON.parse(attributeText(value) || 'null');

/** A key property's value in a (canonical) object name, unquoted. */
export function keyOf(objectName: string, key: string): string {
  const found = new RegExp(`[,:]${key}=("(?:[^"\\\\]|\\\\.)*"|[^,]*)`).exec(objectName)?.[1] ?? '';
  return found.startsWith('"') ? found.slice(1, -1).replace(/\\n/g, '\n').replace(/\\(.)/g, '$1') : found;
}

/** The MBeans a pattern matched, or none when the broker says none exist (a pattern matching nothing is a 404). */
export function patternRead(
  result: CallResult | undefined,
  listed: readonly string[],
  client: ManagementClient,
): Array<[string, Record<string, unknown>]> {
  if (result && !result.ok && result.error.kind === 'not-found' && listed.length === 0) return [];
  const found = valueOf(result, client);
  return found && typeof found === 'object' ? Object.entries(found as Record<string, Record<string, unknown>>) : [];
}

export function divertOf(objectName: string, attributes: Record<string, unknown>): ConfigDivert {
  return {
    name: keyOf(objectName, 'divert'),
    address: attributeText(attributes.Address),
    forwardingAddress: attributeText(attributes.ForwardingAddress),
    routingName: attributeText(attributes.RoutingName),
    exclusive: flag(attributes.Exclusive),
    filter: textOrNull(attributes.Filter),
    routingType: (attributeText(attributes.RoutingType).toUpperCase() || 'STRIP') as DivertRoutingType,
    transformerClassName: textOrNull(attributes.TransformerClassName),
  };
}

export function bridgeOf(attributes: Record<string, unknown>): ConfigBridge {
  return {
    name: attributeText(attributes.Name),
    queueName: attributeText(attributes.QueueName),
    forwardingAddress: textOrNull(attributes.ForwardingAddress),
    filter: textOrNull(attributes.FilterString),
    transformerClassName: textOrNull(attributes.TransformerClassName),
    staticConnectors: names(attributes.StaticConnectors),
    discoveryGroupName: textOrNull(attributes.DiscoveryGroupName),
    ha: flag(attributes.HA),
    retryInterval: numberOf(attributes.RetryInterval),
    retryIntervalMultiplier: numberOf(attributes.RetryIntervalMultiplier),
    maxRetryInterval: numberOf(attributes.MaxRetryInterval),
    reconnectAttempts: numberOf(attributes.ReconnectAttempts),
    useDuplicateDetection: flag(attributes.UseDuplicateDetection),
  };
}

/**
 * A bridge deployed with concurrency n > 1 runs as instances `<name>-0` … `<name>-(n-1)` with one configuration:
 * they fold into one bridge `<name>`. A lone `x-0`, or a set beside a bridge named `x`, is left as it is.
 */
export function foldInstances<Bridge extends ConfigBridge>(instances: readonly Bridge[]): Bridge[] {
  const byName = new Map(instances.map((bridge) => [bridge.name, bridge]));
  const groups = new Map<string, Bridge[]>();
  for (const bridge of instances) {
    const [, parent] = /^(.*)-\d+$/.exec(bridge.name) ?? [];
    if (parent !== undefined) groups.set(parent, [...(groups.get(parent) ?? []), bridge]);
  }
  const folded = new Set<string>();
  const parents: Bridge[] = [];
  for (const [parent, group] of groups) {
    const complete = group.length > 1 && group.every((_, index) => byName.has(`${parent}-${index}`));
    const alike = group.every((bridge) => bridge.queueName === group[0]?.queueName);
    if (!complete || !alike || byName.has(parent) || !group[0]) continue;
    for (const bridge of group) folded.add(bridge.name);
    parents.push({ ...group[0], name: parent });
  }
  return [...instances.filter((bridge) => !folded.has(bridge.name)), ...parents].sort((a, b) =>
    a.name.localeCompare(b.name),
  );
}

function queueOf(row: Record<string, unknown>): ConfigQueue {
  return {
    name: attributeText(row.name),
    address: attributeText(row.address),
    routingType: attributeText(row.routingType).toUpperCase() === 'MULTICAST' ? 'MULTICAST' : 'ANYCAST',
    durable: flag(row.durable),
    filter: textOrNull(row.filter),
    maxConsumers: numberOf(row.maxConsumers),
    purgeOnNoConsumers: flag(row.purgeOnNoConsumers),
    exclusive: flag(row.exclusive),
    lastValue: flag(row.lastValue),
    lastValueKey: textOrNull(row.lastValueKey),
    groupRebalance: flag(row.groupRebalance),
    groupBuckets: numberOf(row.groupBuckets),
    groupFirstKey: textOrNull(row.groupFirstKey),
    consumersBeforeDispatch: numberOf(row.consumersBeforeDispatch),
    delayBeforeDispatch: numberOf(row.delayBeforeDispatch),
    ringSize: numberOf(row.ringSize),
    enabled: flag(row.enabled),
    autoCreated: flag(row.autoCreated),
    temporary: flag(row.temporary),
    internal: flag(row.internalQueue),
    messageCount: numberOf(row.messageCount),
    deliveringCount: numberOf(row.deliveringCount),
    scheduledCount: numberOf(row.scheduledCount),
    consumerCount: numberOf(row.consumerCount),
  };
}

export function queuesOf(value: unknown, client: ManagementClient): ConfigQueue[] {
  const page = parsed(value) as { data?: Array<Record<string, unknown>>; count?: number } | null;
  const rows = page?.data ?? [];
  // A plan against part of the queues would create what exists and miss what to remove.
  if ((page?.count ?? 0) > rows.length)
    throw new ManagementError(
      'broker-error',
      `the node has ${page?.count} queues, more than the ${MAX_QUEUES} one configuration read takes`,
      client.nodeKey,
    );
  return rows.map(queueOf);
}

function rolesOf(value: unknown): ConfigRole[] {
  const roles = parsed(value);
  if (!Array.isArray(roles)) return [];
  return roles.map((role: Record<string, unknown>) => ({
    name: attributeText(role.name),
    ...(Object.fromEntries(ROLE_PERMISSIONS.map((permission) => [permission, role[permission] === true])) as Omit<
      ConfigRole,
      'name'
    >),
  }));
}

export function settingsOf(value: unknown): Record<string, unknown> {
  const settings = parsed(value);
  return settings && typeof settings === 'object' ? (settings as Record<string, unknown>) : {};
}

/** The service user's roles; null when listUser failed or does not know the user (another login module). */
function serviceUserOf(result: CallResult | undefined, username: string): ConfigSnapshot['serviceUser'] {
  if (!result?.ok) return null;
  try {
    const users = parsed(result.value);
    const user = Array.isArray(users)
      ? (users as Array<{ username?: unknown; roles?: unknown }>).find((entry) => entry.username === username)
      : undefined;
    return user ? { username, roles: names(user.roles) } : null;
  } catch {
    return null;
  }
}

export const settingsRead = (mbean: string, text: string): JolokiaRequest => ({
  type: 'exec',
  mbean,
  operation: 'getAddressSettingsAsJSON(java.lang.String)',
  arguments: [text],
});

/** Every queue of the node in one page (listQueues). */
export const queuesRead = (broker: string): JolokiaRequest => ({
  type: 'exec',
  mbean: broker,
  operation: 'listQueues(java.lang.String,int,int)',
  arguments: [NO_FILTER, 1, MAX_QUEUES],
});

/** Every divert of the node, by pattern. */
export const divertsRead = (broker: string): JolokiaRequest => ({
  type: 'read',
  mbean: `${broker},component=addresses,address=*,subcomponent=diverts,divert=*`,
  attribute: DIVERT_ATTRIBUTES,
});

/** Every bridge of the node, by pattern, with any further attributes asked for. */
export const bridgesRead = (broker: string, more: readonly string[] = []): JolokiaRequest => ({
  type: 'read',
  mbean: `${broker},component=bridges,name=*`,
  attribute: [...BRIDGE_ATTRIBUTES, ...more],
});

/** The node's configuration in one POST, or two when `request.inForceFor` names live addresses. */
export async function readConfigSnapshot(
  client: ManagementClient,
  request: ConfigReadRequest,
): Promise<ConfigSnapshot> {
  for (const match of request.addressMatches) assertConfigName('address-setting match', match, true);
  for (const match of request.securityMatches) assertConfigName('security-setting match', match, true);
  if (request.serviceUser !== undefined) assertConfigName('service user', request.serviceUser);
  const broker = await client.brokerObjectName();
  const requests: JolokiaRequest[] = [
    queuesRead(broker),
    { type: 'read', mbean: broker, attribute: ['AddressNames', 'DivertNames', 'BridgeNames'] },
    divertsRead(broker),
    bridgesRead(broker),
    ...request.addressMatches.map((match) => settingsRead(broker, match)),
    ...request.securityMatches.map((match): JolokiaRequest => ({
      type: 'exec',
      mbean: broker,
      operation: 'getRolesAsJSON(java.lang.String)',
      arguments: [match],
    })),
    ...(request.serviceUser === undefined
      ? []
      : [
          {
            type: 'exec',
            mbean: broker,
            operation: 'listUser(java.lang.String)',
            arguments: [request.serviceUser],
          } satisfies JolokiaRequest,
        ]),
  ];
  const tally: PostTally = { posts: 0 };
  const results = await client.call(requests, tally);
  const [queues, brokerNames, diverts, bridges] = results;
  const listed = (valueOf(brokerNames, client) ?? {}) as Record<string, unknown>;
  const settingsAt = results.slice(4, 4 + request.addressMatches.length);
  const rolesAt = results.slice(
    4 + request.addressMatches.length,
    4 + request.addressMatches.length + request.securityMatches.length,
  );
  const first: Omit<ConfigSnapshot, 'inForce' | 'posts'> = {
    queues: queuesOf(valueOf(queues, client), client),
    addresses: names(listed.AddressNames).sort(),
    diverts: patternRead(diverts, names(listed.DivertNames), client)
      .map(([objectName, attributes]) => divertOf(objectName, attributes))
      .sort((a, b) => a.name.localeCompare(b.name)),
    bridges: foldInstances(
      patternRead(bridges, names(listed.BridgeNames), client).map(([, attributes]) => bridgeOf(attributes)),
    ),
    addressSettings: new Map(
      request.addressMatches.map((match, index) => [match, settingsOf(valueOf(settingsAt[index], client))]),
    ),
    securitySettings: new Map(
      request.securityMatches.map((match, index) => [match, rolesOf(valueOf(rolesAt[index], client))]),
    ),
    serviceUser:
      request.serviceUser === undefined ? null : serviceUserOf(results[requests.length - 1], request.serviceUser),
  };
  const live = [...new Set(request.inForceFor?.(first) ?? [])];
  if (live.length === 0) return { ...first, inForce: new Map(), posts: tally.posts };
  for (const address of live) assertConfigName('address', address);
  const inForce = await client.call(
    live.map((address) => settingsRead(broker, address)),
    tally,
  );
  return {
    ...first,
    inForce: new Map(live.map((address, index) => [address, settingsOf(valueOf(inForce[index], client))])),
    posts: tally.posts,
  };
}
