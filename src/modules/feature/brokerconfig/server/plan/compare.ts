// Field-by-field comparison of a declared item with what one node reports (findings §5 "Consequences for drift"; the
// design's drift rule). Only what the broker can read back is compared: the fields declared at an address-setting
// match, the whole role set at a security match, the 8 divert fields, the 13 readable bridge fields, the queue fields
// listQueues gives. A value the broker left out (null, "", absent) and an undeclared optional one are the same.
import {
  ROLE_PERMISSIONS,
  type ConfigBridge,
  type ConfigDivert,
  type ConfigQueue,
  type ConfigRole,
  type ConfigSnapshot,
} from '@/modules/platform/broker/index.ts';
import type {
  DeclaredAddressSetting,
  DeclaredBridge,
  DeclaredDivert,
  DeclaredQueue,
  DeclaredSecuritySetting,
} from '../model/document.ts';
import type { FieldDiff, FieldValue } from './plan-types.ts';

/** The role permissions, in the broker's order. */
export const PERMISSIONS = ROLE_PERMISSIONS;

const absent = (value: unknown) => value === undefined || value === null || value === '';

/** Equal as the broker means it: 1.0 and 1, "true" and true, null and absent; arrays in order. */
export function sameValue(declared: unknown, live: unknown): boolean {
  if (absent(declared) || absent(live)) return absent(declared) && absent(live);
  if (Array.isArray(declared) || Array.isArray(live)) {
    if (!Array.isArray(declared) || !Array.isArray(live) || declared.length !== live.length) return false;
    return declared.every((item, index) => sameValue(item, live[index]));
  }
  if (typeof declared === 'number' || typeof live === 'number') return Number(declared) === Number(live);
  if (typeof declared === 'boolean' || typeof live === 'boolean') return scalar(declared) === scalar(live);
  return declared === live;
}

/** A scalar as text ("true" and true alike); an object never equals one. */
const scalar = (value: unknown): string =>
  typeof value === 'object' ? JSON.stringify(value) : `${value as string | number | boolean}`;

/** Values here come from a parsed document or the broker's JSON, so they are JSON values. */
const shown = (value: unknown): FieldValue => (absent(value) ? null : (value as FieldValue));

function diffFields(fields: readonly string[], declared: object, live: object): FieldDiff[] {
  const [want, have] = [declared as Record<string, unknown>, live as Record<string, unknown>];
  return fields
    .filter((field) => !sameValue(want[field], have[field]))
    .map((field) => ({ field, declared: shown(want[field]), live: shown(have[field]) }));
}

/** Only the fields declared at the match, against the value read at the match (what is in force for that text). */
export function compareAddressSetting(
  declared: DeclaredAddressSetting,
  live: Readonly<Record<string, unknown>>,
): FieldDiff[] {
  return diffFields(Object.keys(declared.settings), declared.settings, live);
}

/** A role's permissions in words, e.g. "send consume"; "" for none. */
export const permissionsOf = (role: ConfigRole): string => PERMISSIONS.filter((p) => role[p]).join(' ');

/** The set must be equal exactly, role by role (order ignored; view/edit are not part of ConfigRole). */
export function compareSecuritySetting(declared: DeclaredSecuritySetting, live: readonly ConfigRole[]): FieldDiff[] {
  const want = new Map(declared.roles.map((role) => [role.name, permissionsOf(role)]));
  const have = new Map(live.map((role) => [role.name, permissionsOf(role)]));
  const names = [...new Set([...want.keys(), ...have.keys()])].sort();
  return names
    .filter((name) => want.get(name) !== have.get(name))
    .map((name) => ({ field: `role:${name}`, declared: want.get(name) ?? null, live: have.get(name) ?? null }));
}

const DIVERT_FIELDS = ['address', 'forwardingAddress', 'exclusive', 'filter', 'routingType', 'transformerClassName'];

/** The 8 readable divert fields; routingName only when declared (left out, the broker picks a random one). */
export function compareDivert(declared: DeclaredDivert, live: ConfigDivert): FieldDiff[] {
  const fields = declared.routingName === undefined ? DIVERT_FIELDS : [...DIVERT_FIELDS, 'routingName'];
  return diffFields(fields, declared, live);
}

/** The 12 readable bridge fields besides its name; user, password and the window sizes cannot be read back. */
export const BRIDGE_READABLE = [
  'queueName',
  'forwardingAddress',
  'filter',
  'transformerClassName',
  'staticConnectors',
  'discoveryGroupName',
  'ha',
  'retryInterval',
  'retryIntervalMultiplier',
  'maxRetryInterval',
  'reconnectAttempts',
  'useDuplicateDetection',
] as const satisfies readonly (keyof ConfigBridge)[];
export const BRIDGE_UNREADABLE = ['confirmationWindowSize', 'producerWindowSize', 'user', 'passwordRef'] as const;

export function compareBridge(declared: DeclaredBridge, live: ConfigBridge): FieldDiff[] {
  return diffFields(BRIDGE_READABLE, { ...declared, staticConnectors: declared.staticConnectors ?? [] }, live);
}

/** Queue fields a change of which needs destroy + create (findings §2 "Queue updates"). */
export const QUEUE_IMMUTABLE = ['address', 'durable', 'lastValue', 'lastValueKey'];
export const QUEUE_FIELDS = [
  'address',
  'routingType',
  'durable',
  'filter',
  'maxConsumers',
  'purgeOnNoConsumers',
  'exclusive',
  'lastValue',
  'lastValueKey',
  'groupRebalance',
  'groupBuckets',
  'groupFirstKey',
  'consumersBeforeDispatch',
  'delayBeforeDispatch',
  'ringSize',
  'enabled',
] as const satisfies readonly (keyof DeclaredQueue & keyof ConfigQueue)[];

export function compareQueue(declared: DeclaredQueue, live: ConfigQueue): FieldDiff[] {
  return diffFields(QUEUE_FIELDS, declared, live);
}

/** A bridge by name; with concurrency > 1 the broker lists instances `<name>-<i>`. */
export function liveBridge(snapshot: ConfigSnapshot, name: string): ConfigBridge | undefined {
  const instance = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-\\d+$`);
  return (
    snapshot.bridges.find((bridge) => bridge.name === name) ??
    snapshot.bridges.find((bridge) => instance.test(bridge.name))
  );
}
