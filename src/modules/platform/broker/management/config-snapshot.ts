// What one node's configuration looks like through management, as the brokerconfig module plans and verifies against
// it (docs/brokerconfig-findings.md). The reads (config-reads.ts) fill it in at most two bulk POSTs; the writes
// (config-writes.ts) take the same shapes. Names follow the broker's camelCase JSON keys; every value is typed here
// (listQueues answers strings, "" for null: config-reads.ts converts).

/** One role at a security-setting match. `view`/`edit` are left out: a setting written at runtime cannot carry them. */
export interface ConfigRole {
  readonly name: string;
  readonly send: boolean;
  readonly consume: boolean;
  readonly createDurableQueue: boolean;
  readonly deleteDurableQueue: boolean;
  readonly createNonDurableQueue: boolean;
  readonly deleteNonDurableQueue: boolean;
  readonly manage: boolean;
  readonly browse: boolean;
  readonly createAddress: boolean;
  readonly deleteAddress: boolean;
}

export const ROLE_PERMISSIONS = [
  'send',
  'consume',
  'createDurableQueue',
  'deleteDurableQueue',
  'createNonDurableQueue',
  'deleteNonDurableQueue',
  'manage',
  'browse',
  'createAddress',
  'deleteAddress',
] as const satisfies readonly (keyof ConfigRole)[];

export type DivertRoutingType = 'STRIP' | 'PASS' | 'ANYCAST' | 'MULTICAST';

export interface ConfigDivert {
  readonly name: string;
  readonly address: string;
  readonly forwardingAddress: string;
  readonly routingName: string;
  readonly exclusive: boolean;
  readonly filter: string | null;
  readonly routingType: DivertRoutingType;
  readonly transformerClassName: string | null;
}

/** The 13 bridge fields BridgeControl reports; the other 14 (user, password among them) cannot be read back. */
export interface ConfigBridge {
  readonly name: string;
  readonly queueName: string;
  readonly forwardingAddress: string | null;
  readonly filter: string | null;
  readonly transformerClassName: string | null;
  readonly staticConnectors: readonly string[];
  readonly discoveryGroupName: string | null;
  readonly ha: boolean;
  readonly retryInterval: number;
  readonly retryIntervalMultiplier: number;
  readonly maxRetryInterval: number;
  readonly reconnectAttempts: number;
  readonly useDuplicateDetection: boolean;
}

type QueueRoutingType = 'ANYCAST' | 'MULTICAST';

export interface ConfigQueue {
  readonly name: string;
  readonly address: string;
  readonly routingType: QueueRoutingType;
  readonly durable: boolean;
  readonly filter: string | null;
  readonly maxConsumers: number;
  readonly purgeOnNoConsumers: boolean;
  readonly exclusive: boolean;
  readonly lastValue: boolean;
  readonly lastValueKey: string | null;
  readonly groupRebalance: boolean;
  readonly groupBuckets: number;
  readonly groupFirstKey: string | null;
  readonly consumersBeforeDispatch: number;
  readonly delayBeforeDispatch: number;
  readonly ringSize: number;
  readonly enabled: boolean;
  /** State the plan's hazards need, not configuration. */
  readonly autoCreated: boolean;
  readonly temporary: boolean;
  readonly internal: boolean;
  readonly messageCount: number;
  readonly deliveringCount: number;
  readonly scheduledCount: number;
  readonly consumerCount: number;
}

/** One node's configuration as management shows it. */
export interface ConfigSnapshot {
  /** The values read at each requested address-setting match (merged: what is in force for that text). */
  readonly addressSettings: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  /** The roles of the most specific match for each requested security-setting match. */
  readonly securitySettings: ReadonlyMap<string, readonly ConfigRole[]>;
  readonly diverts: readonly ConfigDivert[];
  readonly bridges: readonly ConfigBridge[];
  readonly queues: readonly ConfigQueue[];
  readonly addresses: readonly string[];
  /** The address settings in force per live address asked for in the second POST (empty when none was asked). */
  readonly inForce: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  /** The service's own management user and its roles (listUser), null when the broker cannot say. */
  readonly serviceUser: { readonly username: string; readonly roles: readonly string[] } | null;
  /**
   * How many bulk POSTs the read took: 1 or 2 (the plan promises at most two), and one more for each time the queue
   * listing raced a queue's removal and was asked again (management-client.ts).
   */
  readonly posts: number;
}

export interface ConfigReadRequest {
  /** Address-setting matches to read (the declared ones, and "#" for adoption). */
  readonly addressMatches: readonly string[];
  readonly securityMatches: readonly string[];
  /** Which live addresses need the value in force (second POST); none: one POST. */
  readonly inForceFor?: (first: Omit<ConfigSnapshot, 'inForce' | 'posts'>) => readonly string[];
  /** The management user to look up with listUser (its roles feed the lock-out hazard). */
  readonly serviceUser?: string | undefined;
}

/** Address settings as the brokerconfig module declares them: the whole object written at a match. */
export type AddressSettingsObject = Readonly<Record<string, string | number | boolean>>;

/** A divert as written: every field, so an update never journals a partial record (findings §2). */
export type DivertWrite = Omit<ConfigDivert, 'routingName'> & { readonly routingName?: string | undefined };

/** A bridge as written: the readable fields plus the ones the broker takes but never reports back. */
export interface BridgeWrite extends ConfigBridge {
  readonly confirmationWindowSize?: number | undefined;
  readonly producerWindowSize?: number | undefined;
  readonly user?: string | undefined;
  /** Opened from the vault by the apply step just before the call; never stored, logged or audited. */
  readonly password?: string | undefined;
}

export type QueueWrite = Omit<
  ConfigQueue,
  'autoCreated' | 'temporary' | 'internal' | 'messageCount' | 'deliveringCount' | 'scheduledCount' | 'consumerCount'
>;

/** One configuration write: one management operation, sent alone in its POST (a bulk cannot stop midway). */
export type ConfigWrite =
  | { readonly op: 'addAddressSettings'; readonly match: string; readonly settings: AddressSettingsObject }
  | { readonly op: 'removeAddressSettings'; readonly match: string }
  | { readonly op: 'addSecuritySettings'; readonly match: string; readonly roles: readonly ConfigRole[] }
  | { readonly op: 'removeSecuritySettings'; readonly match: string }
  | { readonly op: 'createDivert'; readonly divert: DivertWrite }
  | { readonly op: 'updateDivert'; readonly divert: DivertWrite }
  | { readonly op: 'destroyDivert'; readonly name: string }
  | { readonly op: 'createBridge'; readonly bridge: BridgeWrite }
  | { readonly op: 'destroyBridge'; readonly name: string }
  | { readonly op: 'createQueue'; readonly queue: QueueWrite }
  | { readonly op: 'updateQueue'; readonly queue: QueueWrite }
  | { readonly op: 'destroyQueue'; readonly name: string };
