// The management writes a plan sends: always whole objects (findings §6: addAddressSettings and addSecuritySettings
// replace the object at the match; a partial updateDivert journals a partial record, and one without `address`
// stops the broker at its next start; updateQueue without a filter removes it).
import type {
  AddressSettingsObject,
  BridgeWrite,
  ConfigDivert,
  ConfigRole,
  DivertWrite,
  QueueWrite,
} from '@/modules/platform/broker/index.ts';
import type {
  DeclaredAddressSetting,
  DeclaredBridge,
  DeclaredDivert,
  DeclaredQueue,
  DeclaredSecuritySetting,
} from '../model/document.ts';
import { PERMISSIONS } from './compare.ts';

/** The complete declared object: the broker merges nothing, so a field left out here is gone at the match. */
export function addressSettingsObject(declared: DeclaredAddressSetting): AddressSettingsObject {
  // A parsed document holds no undefined values, but one built in code may: JSON would drop them anyway.
  return Object.fromEntries(
    Object.entries(declared.settings as Record<string, string | number | boolean | undefined>).filter(
      (entry): entry is [string, string | number | boolean] => entry[1] !== undefined,
    ),
  );
}

export function rolesOf(declared: DeclaredSecuritySetting): ConfigRole[] {
  return declared.roles.map((role) => ({
    name: role.name,
    ...Object.fromEntries(PERMISSIONS.map((permission) => [permission, role[permission]])),
  })) as ConfigRole[];
}

/** A new divert: routingName only when declared (the broker picks one otherwise). */
export function divertWrite(declared: DeclaredDivert): DivertWrite {
  return {
    name: declared.name,
    address: declared.address,
    forwardingAddress: declared.forwardingAddress,
    ...(declared.routingName === undefined ? {} : { routingName: declared.routingName }),
    exclusive: declared.exclusive,
    filter: declared.filter ?? null,
    routingType: declared.routingType,
    transformerClassName: declared.transformerClassName ?? null,
  };
}

/** An update carries the live address, exclusive and routing name: the broker cannot change them, but journals them. */
export function divertUpdate(declared: DeclaredDivert, live: ConfigDivert): DivertWrite {
  return { ...divertWrite(declared), address: live.address, exclusive: live.exclusive, routingName: live.routingName };
}

/** No password: the apply step opens `passwordRef` from the vault and adds it just before the call. */
export function bridgeWrite(declared: DeclaredBridge): BridgeWrite {
  return {
    name: declared.name,
    queueName: declared.queueName,
    forwardingAddress: declared.forwardingAddress ?? null,
    filter: declared.filter ?? null,
    transformerClassName: declared.transformerClassName ?? null,
    staticConnectors: declared.staticConnectors ?? [],
    discoveryGroupName: declared.discoveryGroupName ?? null,
    ha: declared.ha,
    retryInterval: declared.retryInterval,
    retryIntervalMultiplier: declared.retryIntervalMultiplier,
    maxRetryInterval: declared.maxRetryInterval,
    reconnectAttempts: declared.reconnectAttempts,
    useDuplicateDetection: declared.useDuplicateDetection,
    ...(declared.confirmationWindowSize === undefined
      ? {}
      : { confirmationWindowSize: declared.confirmationWindowSize }),
    ...(declared.producerWindowSize === undefined ? {} : { producerWindowSize: declared.producerWindowSize }),
    ...(declared.user === undefined ? {} : { user: declared.user }),
  };
}

/** Every field, the filter included (absent would remove it). */
export function queueWrite(declared: DeclaredQueue): QueueWrite {
  return {
    name: declared.name,
    address: declared.address,
    routingType: declared.routingType,
    durable: declared.durable,
    filter: declared.filter ?? null,
    maxConsumers: declared.maxConsumers,
    purgeOnNoConsumers: declared.purgeOnNoConsumers,
    exclusive: declared.exclusive,
    lastValue: declared.lastValue,
    lastValueKey: declared.lastValueKey ?? null,
    groupRebalance: declared.groupRebalance,
    groupBuckets: declared.groupBuckets,
    groupFirstKey: declared.groupFirstKey ?? null,
    consumersBeforeDispatch: declared.consumersBeforeDispatch,
    delayBeforeDispatch: declared.delayBeforeDispatch,
    ringSize: declared.ringSize,
    enabled: declared.enabled,
  };
}
