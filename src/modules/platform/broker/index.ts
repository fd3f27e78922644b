// The broker module's public entry for server code: the only file other modules and the roof may import from it
// (besides module.ts). Whatever is not exported here is private to the module; dependency-cruiser enforces it.
export {
  createQueues,
  destroyQueues,
  listNetworkTopology,
  listResourcePages,
  readAmqpAcceptors,
  readBrokerState,
} from './management/broker-operations.ts';
export type { BrokerState, ListPage } from './management/broker-operations.ts';
export { brokerWrites } from './management/broker-writes.ts';
export type { BrokerWrites, QueueRef } from './management/broker-writes.ts';
// Broker configuration (feature/brokerconfig): the snapshot it plans against; its writes are `brokerWrites.config`.
export { readConfigSnapshot } from './management/config-reads.ts';
export { ROLE_PERMISSIONS } from './management/config-snapshot.ts';
// Routing (feature/routing): one node's addresses, queues, diverts, bridges, cluster connections and settings in force.
export { readRoutingSnapshot } from './management/routing-reads.ts';
export type { RoutingSnapshot } from './management/routing-reads.ts';
export type {
  AddressSettingsObject,
  BridgeWrite,
  ConfigBridge,
  ConfigDivert,
  ConfigQueue,
  ConfigRole,
  ConfigSnapshot,
  ConfigWrite,
  DivertWrite,
  QueueWrite,
} from './management/config-snapshot.ts';
export { countQueueMessages, listMessageIds } from './management/queue-counts.ts';
export { readAddressMessages, readTemporaryQueueCounts } from './management/request-reply-reads.ts';
export type { QueueCount } from './management/queue-counts.ts';
export { browseQueue as browseOverManagement } from './management/management-browse.ts';
export { browseQueues } from './management/management-browse.ts';
export type { ManagementBrowseResult } from './management/management-browse.ts';
export { contentOfBrowsed } from './management/browsed-content.ts';
export { browseQueue as browseNatively } from './native/browse.ts';
export { sendMessage } from './native/send.ts';
export { reservedAddressReason, reservedPropertyPrefix } from './native/reserved-names.ts';
export type { SendRequest } from './native/send-request.ts';
export type { NativeMessage } from './native/native-message.ts';
export type { TypedValue } from './native/typed-value.ts';
export { listEveryRow, readAddressDetail, readAddressSettings, readNodeFacts } from './management/live-reads.ts';
export type { LiveListKind, RawNodeFacts } from './management/live-reads.ts';
export { probeCapabilities, probeManagementCapabilities } from './management/capability-probe.ts';
export type { Verdict as ProbeVerdict } from './management/capability-probe.ts';
export { ManagementClient, releaseManagementNode } from './management/management-client.ts';
export type { ManagementEndpoint } from './management/management-client.ts';
export { ManagementError } from './management/management-error.ts';
export { managementLimitsOf, readManagementLimits } from './management/management.settings.ts';
export type { ManagementLimits } from './management/management.settings.ts';
export { forgetNode, listNodeStates } from './management/node-state-registry.ts';
export { loadBrokerEventDispatcher } from './native/broker-event-consumers.ts';
export type { BrokerEventConsumer, BrokerEventHandler } from './native/broker-event-consumer.ts';
export type { BrokerEvent } from './native/broker-event.ts';
export { addressFromUrl } from './native/native-endpoint.ts';
// The demo fleet's traffic (scripts/fleet.ts) and its end: a consumer that acknowledges, and every native connection closed.
export { openAckConsumer } from './native/ack-consumer.ts';
export type { AckConsumer } from './native/ack-consumer.ts';
export { shutdown as shutdownNative } from './native/shutdown.ts';
export type { NativeEndpoint } from './native/native-endpoint.ts';
export { closeNativeConnection, pooledNativeEndpoints } from './native/native-pool.ts';
export { dropNotificationSubscription, ensureNotificationSubscription } from './native/notification-subscription.ts';
export { subscriptionState } from './native/subscription-state.ts';
export type { SubscriptionState } from './native/subscription-state.ts';
// Capture taps (feature/sql): the reads feed the reconciler's diff and preflight; the writes only its apply step.
export {
  captureWrites,
  listDiverts,
  readCaptureSecurity,
  readTapInventory,
  readTapShape,
} from './management/capture-writes.ts';
export type {
  CaptureSecurity,
  DivertInfo,
  RolePermissions,
  TapNames,
  TapShape,
  TapSpec,
} from './management/capture-writes.ts';
// The scrape (platform/scrape) shares the clusters out between the live workers.
export { countLiveWorkers } from './management/live-workers.ts';
