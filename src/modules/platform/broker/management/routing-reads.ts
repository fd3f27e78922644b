// One node's routing configuration as the routing module draws it (feature/routing), in two bulk POSTs: the first
// holds the queues, the addresses with their routing types, the diverts, bridges and cluster connections (each kind
// by pattern); the second the address settings in force for each address the first one showed (dead-letter and
// expiry addresses, redistribution). The shapes and conversions are config-reads.ts's, shared.
import { setImmediate as yieldToIo } from 'node:timers/promises';
import type { JolokiaRequest, ManagementClient, PostTally } from './management-client.ts';
import {
  bridgeOf,
  bridgesRead,
  divertOf,
  divertsRead,
  flag,
  foldInstances,
  keyOf,
  names,
  numberOf,
  patternRead,
  queuesOf,
  queuesRead,
  settingsOf,
  settingsRead,
  textOrNull,
  valueOf,
} from './config-reads.ts';
import type { ConfigBridge, ConfigDivert, ConfigQueue } from './config-snapshot.ts';
import { attributeText } from './broker-operations.ts';

interface RoutingSnapshotAddress {
  readonly name: string;
  /** Upper case, as the broker names them (ANYCAST, MULTICAST). */
  readonly routingTypes: readonly string[];
  readonly internal: boolean;
}

interface RoutingSnapshotBridge extends ConfigBridge {
  readonly started: boolean;
}

interface RoutingSnapshotClusterConnection {
  readonly name: string;
  readonly address: string;
  readonly messageLoadBalancing: string;
  readonly maxHops: number;
  readonly started: boolean;
  readonly staticConnectors: readonly string[];
  readonly discoveryGroupName: string | null;
  /** How many other nodes it has a live bridge to (the Nodes map). */
  readonly connectedNodes: number;
}

/** The settings that decide where a message goes, as in force for one address (the broker's merge of every match). */
interface RoutingSettingsInForce {
  readonly deadLetterAddress: string | null;
  readonly expiryAddress: string | null;
  readonly sendToDlaOnNoRoute: boolean;
  readonly redistributionDelay: number;
  readonly autoCreateQueues: boolean;
}

export interface RoutingSnapshot {
  readonly queues: readonly ConfigQueue[];
  readonly addresses: readonly RoutingSnapshotAddress[];
  readonly diverts: readonly ConfigDivert[];
  readonly bridges: readonly RoutingSnapshotBridge[];
  readonly clusterConnections: readonly RoutingSnapshotClusterConnection[];
  /** By address; an address the second read did not ask about (an internal one) is absent. */
  readonly settingsInForce: ReadonlyMap<string, RoutingSettingsInForce>;
  /** The bulk POSTs the read took: 1 when the node has no address to ask about, else 2; one more per raced listing. */
  readonly posts: number;
}

const CLUSTER_CONNECTION_ATTRIBUTES = [
  'Address',
  'MessageLoadBalancingType',
  'MaxHops',
  'Started',
  'StaticConnectors',
  'DiscoveryGroupName',
  'Nodes',
];

function addressOf(objectName: string, attributes: Record<string, unknown>): RoutingSnapshotAddress {
  return {
    name: keyOf(objectName, 'address'),
    routingTypes: names(attributes.RoutingTypes).map((type) => type.toUpperCase()),
    internal: flag(attributes.Internal),
  };
}

function clusterConnectionOf(
  objectName: string,
  attributes: Record<string, unknown>,
): RoutingSnapshotClusterConnection {
  const nodes = attributes.Nodes;
  return {
    name: keyOf(objectName, 'name'),
    address: attributeText(attributes.Address),
    messageLoadBalancing: attributeText(attributes.MessageLoadBalancingType).toUpperCase() || 'OFF',
    maxHops: numberOf(attributes.MaxHops),
    started: flag(attributes.Started),
    staticConnectors: names(attributes.StaticConnectors),
    discoveryGroupName: textOrNull(attributes.DiscoveryGroupName),
    connectedNodes: nodes && typeof nodes === 'object' ? Object.keys(nodes).length : 0,
  };
}

// A field unset along the whole merge is absent from the JSON: the broker applies its code default
// (docs/brokerconfig-findings.md §5).
const settingNumber = (value: unknown, unset: number): number =>
  value === undefined || value === null || value === '' ? unset : Number(value);
const settingFlag = (value: unknown, unset: boolean): boolean =>
  value === undefined || value === null || value === '' ? unset : flag(value);

function inForceOf(settings: Record<string, unknown>): RoutingSettingsInForce {
  return {
    deadLetterAddress: textOrNull(settings.deadLetterAddress),
    expiryAddress: textOrNull(settings.expiryAddress),
    sendToDlaOnNoRoute: settingFlag(settings.sendToDLAOnNoRoute, false),
    redistributionDelay: settingNumber(settings.redistributionDelay, -1),
    autoCreateQueues: settingFlag(settings.autoCreateQueues, true),
  };
}

/** The node's routing configuration in at most two bulk POSTs. */
export async function readRoutingSnapshot(client: ManagementClient): Promise<RoutingSnapshot> {
  const broker = await client.brokerObjectName();
  const requests: JolokiaRequest[] = [
    queuesRead(broker),
    {
      type: 'read',
      mbean: broker,
      attribute: ['AddressNames', 'DivertNames', 'BridgeNames', 'ClusterConnectionNames'],
    },
    { type: 'read', mbean: `${broker},component=addresses,address=*`, attribute: ['RoutingTypes', 'Internal'] },
    divertsRead(broker),
    bridgesRead(broker, ['Started']),
    {
      type: 'read',
      mbean: `${broker},component=cluster-connections,name=*`,
      attribute: CLUSTER_CONNECTION_ATTRIBUTES,
    },
  ];
  const tally: PostTally = { posts: 0 };
  const [queues, brokerNames, addresses, diverts, bridges, clusterConnections] = await client.call(requests, tally);
  const listed = (valueOf(brokerNames, client) ?? {}) as Record<string, unknown>;
  const addressRows = patternRead(addresses, names(listed.AddressNames), client).map(([objectName, attributes]) =>
    addressOf(objectName, attributes),
  );
  // Internal addresses (notifications, store-and-forward) are the broker's own: their settings route nothing of ours.
  const asked = addressRows
    .filter((address) => !address.internal && address.name !== '')
    .map((address) => address.name);
  // The second POST leaves before the first answer's queues (thousands of rows) are converted: the broker answers it
  // while this side works. A conversion that throws still leaves its failure handled, not unhandled.
  const inForce =
    asked.length === 0
      ? undefined
      : client.call(
          asked.map((address) => settingsRead(broker, address)),
          tally,
        );
  inForce?.catch(() => undefined);
  await yieldToIo(); // lets the request reach its socket before the conversion below holds the thread
  const first = {
    queues: queuesOf(valueOf(queues, client), client),
    addresses: addressRows.sort((a, b) => a.name.localeCompare(b.name)),
    diverts: patternRead(diverts, names(listed.DivertNames), client)
      .map(([objectName, attributes]) => divertOf(objectName, attributes))
      .sort((a, b) => a.name.localeCompare(b.name)),
    bridges: foldInstances(
      patternRead(bridges, names(listed.BridgeNames), client).map(([, attributes]) => ({
        ...bridgeOf(attributes),
        started: flag(attributes.Started),
      })),
    ),
    clusterConnections: patternRead(clusterConnections, names(listed.ClusterConnectionNames), client)
      .map(([objectName, attributes]) => clusterConnectionOf(objectName, attributes))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
  if (!inForce) return { ...first, settingsInForce: new Map(), posts: tally.posts };
  const settings = await inForce;
  return {
    ...first,
    settingsInForce: new Map(
      asked.map((address, index) => [address, inForceOf(settingsOf(valueOf(settings[index], client)))]),
    ),
    posts: tally.posts,
  };
}
