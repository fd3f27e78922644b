// The declared document as the routing module sees one node: the Builder tab draws it with the same graph as the
// live cluster. Addresses are implied by what names them (queues, diverts on and to them, bridges' queues, the
// dead-letter and expiry addresses their settings point to); their routing facts come from the declared address
// settings merged field by field, most specific match first, as the broker merges them. Pure: the routing types are
// imported as types only (brokerconfig merely uses routing, which may be off).
import type {
  QueueRoutingType,
  RoutingAddress,
  RoutingBridge,
  RoutingDivert,
  RoutingNodeView,
  RoutingQueue,
} from '@/modules/feature/routing/ui.ts';
import type { AddressSettingFields, ConfigDocument } from '../../server/model/document.ts';
import { coveringInOrder } from '../../server/plan/match.ts';

/** The one "node" of a declared graph: the document, not a broker. */
export const DECLARED_NODE = { nodeId: 'declared', nodeName: 'Declared' } as const;

type Settings = ConfigDocument['addressSettings'];

/** A field's value at `address`: from the most specific declared match that sets it, undefined when none does. */
function settingAt<Field extends keyof AddressSettingFields>(
  settings: Settings,
  address: string,
  field: Field,
): AddressSettingFields[Field] | undefined {
  const bySpecificity = coveringInOrder(
    settings.map((entry) => entry.match),
    address,
  );
  for (const match of bySpecificity) {
    const value = settings.find((entry) => entry.match === match)?.settings[field];
    if (value !== undefined) return value;
  }
  return undefined;
}

function addressOf(document: ConfigDocument, name: string): RoutingAddress {
  const routingTypes = [
    ...new Set(document.queues.filter((queue) => queue.address === name).map((queue) => queue.routingType)),
  ].sort() as QueueRoutingType[];
  const at = <Field extends keyof AddressSettingFields>(field: Field) =>
    settingAt(document.addressSettings, name, field);
  return {
    name,
    routingTypes,
    deadLetterAddress: at('deadLetterAddress') ?? null,
    expiryAddress: at('expiryAddress') ?? null,
    // The broker's default when no declared match sets it.
    sendToDlaOnNoRoute: at('sendToDLAOnNoRoute') ?? false,
    redistributionDelay: at('redistributionDelay') ?? null,
    autoCreateQueues: at('autoCreateQueues') ?? null,
    internal: false,
  };
}

/** Every address the document names, and the dead-letter and expiry addresses those lead to (theirs in turn). */
function impliedAddresses(document: ConfigDocument): string[] {
  const named = new Set<string>();
  for (const queue of document.queues) named.add(queue.address);
  for (const divert of document.diverts) named.add(divert.address).add(divert.forwardingAddress);
  // A Set iterates over what is added while iterating: the chain ends, the settings name finitely many addresses.
  for (const name of named) {
    for (const field of ['deadLetterAddress', 'expiryAddress'] as const) {
      const target = settingAt(document.addressSettings, name, field);
      if (target) named.add(target);
    }
  }
  return [...named].sort((a, b) => a.localeCompare(b));
}

const queueOf = (queue: ConfigDocument['queues'][number]): RoutingQueue => ({
  name: queue.name,
  address: queue.address,
  routingType: queue.routingType,
  filter: queue.filter ?? null,
  durable: queue.durable,
  temporary: false,
  internal: false,
  messageCount: null,
  consumerCount: null,
});

const divertOf = (divert: ConfigDocument['diverts'][number]): RoutingDivert => ({
  name: divert.name,
  address: divert.address,
  forwardingAddress: divert.forwardingAddress,
  exclusive: divert.exclusive,
  filter: divert.filter ?? null,
  routingType: divert.routingType,
  transformerClassName: divert.transformerClassName ?? null,
});

const bridgeOf = (bridge: ConfigDocument['bridges'][number]): RoutingBridge => ({
  name: bridge.name,
  queueName: bridge.queueName,
  forwardingAddress: bridge.forwardingAddress ?? null,
  filter: bridge.filter ?? null,
  transformerClassName: bridge.transformerClassName ?? null,
  staticConnectors: bridge.staticConnectors ?? [],
  discoveryGroupName: bridge.discoveryGroupName ?? null,
  // A declaration is not running anywhere.
  started: null,
});

/** The declared document as one routing node ("Declared"): no cluster connections, which documents do not hold. */
export function declaredView(document: ConfigDocument): RoutingNodeView {
  return {
    ...DECLARED_NODE,
    addresses: impliedAddresses(document).map((name) => addressOf(document, name)),
    queues: document.queues.map(queueOf),
    diverts: document.diverts.map(divertOf),
    bridges: document.bridges.map(bridgeOf),
    clusterConnections: [],
  };
}
