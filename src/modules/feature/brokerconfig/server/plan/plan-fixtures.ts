// Hand-built node snapshots and documents for the plan's unit tests: each helper gives the broker's defaults, a test
// names only what it is about.
import type {
  ConfigBridge,
  ConfigDivert,
  ConfigQueue,
  ConfigRole,
  ConfigSnapshot,
} from '@/modules/platform/broker/index.ts';
import { configDocument, type ConfigDocument, type ConfigDocumentInput } from '../model/document.ts';
import { PERMISSIONS } from './compare.ts';

/** Address settings as read back: the two fields the broker always reports, plus the given ones. */
export const read = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  managementBrowsePageSize: 200,
  slowConsumerThresholdMeasurementUnit: 'MESSAGES_PER_SECOND',
  ...fields,
});

export interface SnapshotParts {
  addressSettings?: Record<string, Record<string, unknown>>;
  securitySettings?: Record<string, readonly ConfigRole[]>;
  diverts?: ConfigDivert[];
  bridges?: ConfigBridge[];
  queues?: ConfigQueue[];
  addresses?: string[];
  inForce?: Record<string, Record<string, unknown>>;
  serviceUser?: { username: string; roles: string[] } | null;
}

export function snapshot(parts: SnapshotParts = {}): ConfigSnapshot {
  const queues = parts.queues ?? [];
  return {
    addressSettings: new Map(Object.entries(parts.addressSettings ?? {})),
    securitySettings: new Map(Object.entries(parts.securitySettings ?? {})),
    diverts: parts.diverts ?? [],
    bridges: parts.bridges ?? [],
    queues,
    addresses: parts.addresses ?? [...new Set(queues.map((q) => q.address))],
    inForce: new Map(Object.entries(parts.inForce ?? {})),
    serviceUser: parts.serviceUser ?? null,
    posts: 1,
  };
}

export const doc = (input: ConfigDocumentInput = {}): ConfigDocument => configDocument.parse(input);

export function role(name: string, ...permissions: (typeof PERMISSIONS)[number][]): ConfigRole {
  return Object.fromEntries([['name', name], ...PERMISSIONS.map((p) => [p, permissions.includes(p)])]) as ConfigRole;
}

export function queue(name: string, overrides: Partial<ConfigQueue> = {}): ConfigQueue {
  return {
    name,
    address: name,
    routingType: 'ANYCAST',
    durable: true,
    filter: null,
    maxConsumers: -1,
    purgeOnNoConsumers: false,
    exclusive: false,
    lastValue: false,
    lastValueKey: null,
    groupRebalance: false,
    groupBuckets: -1,
    groupFirstKey: null,
    consumersBeforeDispatch: 0,
    delayBeforeDispatch: -1,
    ringSize: -1,
    enabled: true,
    autoCreated: false,
    temporary: false,
    internal: false,
    messageCount: 0,
    deliveringCount: 0,
    scheduledCount: 0,
    consumerCount: 0,
    ...overrides,
  };
}

export function divert(name: string, overrides: Partial<ConfigDivert> = {}): ConfigDivert {
  return {
    name,
    address: 'orders',
    forwardingAddress: 'orders.audit',
    routingName: 'b6a0c6d2-0000-4000-8000-000000000001',
    exclusive: false,
    filter: null,
    routingType: 'STRIP',
    transformerClassName: null,
    ...overrides,
  };
}

export function bridge(name: string, overrides: Partial<ConfigBridge> = {}): ConfigBridge {
  return {
    name,
    queueName: 'outbound',
    forwardingAddress: null,
    filter: null,
    transformerClassName: null,
    staticConnectors: ['remote'],
    discoveryGroupName: null,
    ha: false,
    retryInterval: 2000,
    retryIntervalMultiplier: 1,
    maxRetryInterval: 2000,
    reconnectAttempts: -1,
    useDuplicateDetection: true,
    ...overrides,
  };
}
