// The declared configuration of a cluster: one document per revision (spec: Broker configuration management). The
// schema validates a save, drives the editor's completion (its JSON schema, `documentJsonSchema`) and types the
// planner. Names are the broker's own camelCase JSON keys, so an operator who knows broker.xml finds them. Unknown
// keys are refused: the broker ignores an unknown address-setting key without a word, so a typo would never apply.
import { z } from 'zod';

const name = z.string().trim().min(1).max(255);
/** A match: `.`-separated words, `*` one word, `#` zero or more words and only last (Artemis' Match.verify). */
const match = name.refine((text) => !text.slice(0, -1).includes('#'), {
  message: '"#" may only be the last character of a match',
});

const addressFullPolicy = z.enum(['DROP', 'PAGE', 'BLOCK', 'FAIL']);
const size = z.number().int().min(-1);
const millis = z.number().int().min(-1);

/** The address-setting fields a declaration may set (a subset of the broker's 79; the ones operators tune). */
export const addressSettingFields = z
  .object({
    deadLetterAddress: name.describe('Where a message goes after maxDeliveryAttempts; none: it is dropped'),
    expiryAddress: name.describe('Where an expired message goes; none: it is dropped'),
    autoCreateDeadLetterResources: z.boolean(),
    deadLetterQueuePrefix: z.string(),
    deadLetterQueueSuffix: z.string(),
    autoCreateExpiryResources: z.boolean(),
    expiryQueuePrefix: z.string(),
    expiryQueueSuffix: z.string(),
    expiryDelay: millis,
    minExpiryDelay: millis,
    maxExpiryDelay: millis,
    noExpiry: z.boolean(),
    maxDeliveryAttempts: z.number().int().min(-1).describe('Deliveries before the DLA; the broker default is 10'),
    redeliveryDelay: z.number().int().min(0),
    redeliveryMultiplier: z.number().min(1),
    maxRedeliveryDelay: z.number().int().min(0),
    redeliveryCollisionAvoidanceFactor: z.number().min(0).max(1),
    maxSizeBytes: size,
    maxSizeMessages: size,
    maxSizeBytesRejectThreshold: size,
    addressFullMessagePolicy: addressFullPolicy,
    pageSizeBytes: z.number().int().min(1),
    pageLimitBytes: size,
    pageLimitMessages: size,
    pageFullMessagePolicy: z.enum(['DROP', 'FAIL']),
    maxReadPageBytes: size,
    maxReadPageMessages: size,
    redistributionDelay: millis.describe('How long a clustered queue without consumers waits before redistributing'),
    autoCreateQueues: z.boolean(),
    autoCreateAddresses: z.boolean(),
    autoDeleteQueues: z.boolean(),
    autoDeleteCreatedQueues: z.boolean(),
    autoDeleteQueuesDelay: z.number().int().min(0),
    autoDeleteQueuesMessageCount: z.number().int().min(-1),
    autoDeleteAddresses: z.boolean(),
    autoDeleteAddressesDelay: z.number().int().min(0),
    sendToDLAOnNoRoute: z.boolean(),
    defaultRingSize: z.number().int().min(-1),
    slowConsumerThreshold: z.number().int().min(-1),
    slowConsumerCheckPeriod: z.number().int().min(1),
    slowConsumerPolicy: z.enum(['KILL', 'NOTIFY']),
    managementBrowsePageSize: z.number().int().min(1),
    managementMessageAttributeSizeLimit: z.number().int().min(-1),
    configDeleteQueues: z.enum(['OFF', 'FORCE']),
    configDeleteAddresses: z.enum(['OFF', 'FORCE']),
    configDeleteDiverts: z.enum(['OFF', 'FORCE']),
  })
  .partial()
  .strict();

export type AddressSettingFields = z.infer<typeof addressSettingFields>;

const declaredAddressSetting = z
  .object({ match, settings: addressSettingFields, note: z.string().max(500).optional() })
  .strict();

const permission = z.boolean().default(false);
export const declaredRole = z
  .object({
    name: name.refine((text) => !/[\s,]/.test(text), { message: 'a role name cannot hold a space or a comma' }),
    send: permission,
    consume: permission,
    createDurableQueue: permission,
    deleteDurableQueue: permission,
    createNonDurableQueue: permission,
    deleteNonDurableQueue: permission,
    manage: permission,
    browse: permission,
    createAddress: permission,
    deleteAddress: permission,
  })
  .strict();

const declaredSecuritySetting = z
  .object({ match, roles: z.array(declaredRole).max(100), note: z.string().max(500).optional() })
  .strict();

export const declaredDivert = z
  .object({
    name,
    address: name,
    forwardingAddress: name,
    /** Left out: the broker picks a random one, so drift ignores it. */
    routingName: name.optional(),
    exclusive: z.boolean().default(false),
    filter: z.string().min(1).max(4096).optional(),
    routingType: z.enum(['STRIP', 'PASS', 'ANYCAST', 'MULTICAST']).default('STRIP'),
    transformerClassName: name.optional(),
  })
  .strict();

const declaredBridge = z
  .object({
    name,
    queueName: name,
    forwardingAddress: name.optional(),
    filter: z.string().min(1).max(4096).optional(),
    transformerClassName: name.optional(),
    staticConnectors: z.array(name).max(20).optional(),
    discoveryGroupName: name.optional(),
    ha: z.boolean().default(false),
    retryInterval: z.number().int().min(1).default(2000),
    retryIntervalMultiplier: z.number().min(1).default(1),
    maxRetryInterval: z.number().int().min(1).default(2000),
    reconnectAttempts: z.number().int().min(-1).default(-1),
    useDuplicateDetection: z.boolean().default(true),
    // Not readable back from the broker: applied, never verified (the screen says so).
    confirmationWindowSize: z.number().int().min(-1).optional(),
    producerWindowSize: z.number().int().min(-1).optional(),
    user: name.optional(),
    /** The name of a bridge credential in the brokerconfig vault; the password itself is never in a document. */
    passwordRef: name.optional(),
  })
  .strict()
  .refine((bridge) => (bridge.staticConnectors?.length ?? 0) > 0 || bridge.discoveryGroupName !== undefined, {
    message: 'a bridge needs staticConnectors or a discoveryGroupName',
  });

export const declaredQueue = z
  .object({
    name,
    address: name,
    routingType: z.enum(['ANYCAST', 'MULTICAST']).default('ANYCAST'),
    durable: z.boolean().default(true),
    filter: z.string().min(1).max(4096).optional(),
    maxConsumers: z.number().int().min(-1).default(-1),
    purgeOnNoConsumers: z.boolean().default(false),
    exclusive: z.boolean().default(false),
    lastValue: z.boolean().default(false),
    lastValueKey: name.optional(),
    groupRebalance: z.boolean().default(false),
    groupBuckets: z.number().int().min(-1).default(-1),
    groupFirstKey: name.optional(),
    consumersBeforeDispatch: z.number().int().min(0).default(0),
    delayBeforeDispatch: z.number().int().min(-1).default(-1),
    ringSize: z.number().int().min(-1).default(-1),
    enabled: z.boolean().default(true),
  })
  .strict();

const uniqueBy =
  <T>(key: (item: T) => string, what: string) =>
  (items: T[], context: z.RefinementCtx) => {
    const seen = new Set<string>();
    items.forEach((item, index) => {
      const value = key(item);
      if (seen.has(value))
        context.addIssue({ code: 'custom', message: `${what} "${value}" is declared twice`, path: [index] });
      seen.add(value);
    });
  };

export const configDocument = z
  .object({
    addressSettings: z
      .array(declaredAddressSetting)
      .max(2_000)
      .default([])
      .superRefine(uniqueBy((item) => item.match, 'the address-setting match')),
    securitySettings: z
      .array(declaredSecuritySetting)
      .max(2_000)
      .default([])
      .superRefine(uniqueBy((item) => item.match, 'the security-setting match')),
    diverts: z
      .array(declaredDivert)
      .max(2_000)
      .default([])
      .superRefine(uniqueBy((item) => item.name, 'the divert')),
    bridges: z
      .array(declaredBridge)
      .max(500)
      .default([])
      .superRefine(uniqueBy((item) => item.name, 'the bridge')),
    queues: z
      .array(declaredQueue)
      .max(10_000)
      .default([])
      .superRefine(uniqueBy((item) => item.name, 'the queue')),
  })
  .strict();

/** A declared document as stored: defaults filled in. */
export type ConfigDocument = z.output<typeof configDocument>;
/** A document as a user writes it: defaults may be left out. */
export type ConfigDocumentInput = z.input<typeof configDocument>;
export type DeclaredAddressSetting = ConfigDocument['addressSettings'][number];
export type DeclaredSecuritySetting = ConfigDocument['securitySettings'][number];
export type DeclaredDivert = ConfigDocument['diverts'][number];
export type DeclaredBridge = ConfigDocument['bridges'][number];
export type DeclaredQueue = ConfigDocument['queues'][number];

export const EMPTY_DOCUMENT: ConfigDocument = configDocument.parse({});

/** The document's JSON schema, for the editor's completion and validation (`io: 'input'`: defaults optional). */
export const documentJsonSchema = () => z.toJSONSchema(configDocument, { io: 'input', unrepresentable: 'any' });
