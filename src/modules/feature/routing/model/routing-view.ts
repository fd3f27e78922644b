// What the routing module knows of one node: the parts of its configuration that decide where a message goes. The
// live read (server/live) fills one per serving node from the broker; the brokerconfig module's Builder fills one
// from the declared document. Pure data, no server imports: the screens import it as well.

export type QueueRoutingType = 'ANYCAST' | 'MULTICAST';
/** How a divert sets the routing type of what it forwards (STRIP: none, PASS: the original's). */
export type DivertRoutingType = 'STRIP' | 'PASS' | 'ANYCAST' | 'MULTICAST';

export interface RoutingAddress {
  readonly name: string;
  /** The routing types the address accepts; empty when not known (a declared address implied by a queue). */
  readonly routingTypes: readonly QueueRoutingType[];
  /** From the address settings in force for this address; null when none is set or not known. */
  readonly deadLetterAddress: string | null;
  readonly expiryAddress: string | null;
  /** Whether a message no queue takes goes to the dead-letter address (else it is dropped). */
  readonly sendToDlaOnNoRoute: boolean;
  /** Milliseconds before messages move to a node with consumers; -1 never, null not known. */
  readonly redistributionDelay: number | null;
  readonly autoCreateQueues: boolean | null;
  readonly internal: boolean;
}

export interface RoutingQueue {
  readonly name: string;
  readonly address: string;
  readonly routingType: QueueRoutingType;
  /** The queue's own filter (JMS selector syntax), null for none. */
  readonly filter: string | null;
  readonly durable: boolean;
  readonly temporary: boolean;
  readonly internal: boolean;
  /** Null where not known (a declared queue). */
  readonly messageCount: number | null;
  readonly consumerCount: number | null;
}

export interface RoutingDivert {
  readonly name: string;
  readonly address: string;
  readonly forwardingAddress: string;
  readonly exclusive: boolean;
  readonly filter: string | null;
  readonly routingType: DivertRoutingType;
  readonly transformerClassName: string | null;
}

export interface RoutingBridge {
  readonly name: string;
  /** The local queue the bridge consumes. */
  readonly queueName: string;
  /** Where it sends on the remote broker; null: the original address. */
  readonly forwardingAddress: string | null;
  readonly filter: string | null;
  readonly transformerClassName: string | null;
  readonly staticConnectors: readonly string[];
  readonly discoveryGroupName: string | null;
  /** Null where not known (a declared bridge). */
  readonly started: boolean | null;
}

export type MessageLoadBalancing = 'OFF' | 'STRICT' | 'ON_DEMAND' | 'OFF_WITH_REDISTRIBUTION';

export interface RoutingClusterConnection {
  readonly name: string;
  /** The address prefix it covers ('' for all addresses); comma-separated exclusions start with '!'. */
  readonly address: string;
  readonly messageLoadBalancing: MessageLoadBalancing;
  readonly maxHops: number;
  readonly started: boolean;
  readonly staticConnectors: readonly string[];
  readonly discoveryGroupName: string | null;
  /** The broker node ids it is connected to (Nodes attribute), when known. */
  readonly connectedNodes: number;
}

/** One node's routing configuration. */
export interface RoutingNodeView {
  readonly nodeId: string;
  readonly nodeName: string;
  readonly addresses: readonly RoutingAddress[];
  readonly queues: readonly RoutingQueue[];
  readonly diverts: readonly RoutingDivert[];
  readonly bridges: readonly RoutingBridge[];
  readonly clusterConnections: readonly RoutingClusterConnection[];
}
