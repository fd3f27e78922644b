// Builders of routing views for the model's tests: each item with plain defaults (an ANYCAST, durable queue without a
// filter; a non-exclusive STRIP divert; addresses taking both routing types, no DLA or expiry), changed per test.
import type {
  RoutingAddress,
  RoutingBridge,
  RoutingClusterConnection,
  RoutingDivert,
  RoutingNodeView,
  RoutingQueue,
} from './routing-view.ts';

export const address = (name: string, more: Partial<RoutingAddress> = {}): RoutingAddress => ({
  name,
  routingTypes: ['ANYCAST', 'MULTICAST'],
  deadLetterAddress: null,
  expiryAddress: null,
  sendToDlaOnNoRoute: false,
  redistributionDelay: -1,
  autoCreateQueues: true,
  internal: false,
  ...more,
});
export const queue = (name: string, on: string, more: Partial<RoutingQueue> = {}): RoutingQueue => ({
  name,
  address: on,
  routingType: 'ANYCAST',
  filter: null,
  durable: true,
  temporary: false,
  internal: false,
  messageCount: 0,
  consumerCount: 0,
  ...more,
});
export const divert = (name: string, on: string, to: string, more: Partial<RoutingDivert> = {}): RoutingDivert => ({
  name,
  address: on,
  forwardingAddress: to,
  exclusive: false,
  filter: null,
  routingType: 'STRIP',
  transformerClassName: null,
  ...more,
});
export const bridge = (name: string, queueName: string, forwardingAddress: string | null): RoutingBridge => ({
  name,
  queueName,
  forwardingAddress,
  filter: null,
  transformerClassName: null,
  staticConnectors: ['other'],
  discoveryGroupName: null,
  started: true,
});
export const connection = (name: string, spec: string): RoutingClusterConnection => ({
  name,
  address: spec,
  messageLoadBalancing: 'ON_DEMAND',
  maxHops: 1,
  started: true,
  staticConnectors: ['peer'],
  discoveryGroupName: null,
  connectedNodes: 1,
});
export const view = (nodeId: string, nodeName: string, parts: Partial<RoutingNodeView> = {}): RoutingNodeView => ({
  nodeId,
  nodeName,
  addresses: [],
  queues: [],
  diverts: [],
  bridges: [],
  clusterConnections: [],
  ...parts,
});
