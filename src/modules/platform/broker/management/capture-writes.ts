// The management operations of a capture tap: a non-exclusive divert from a source address into a service-owned,
// non-durable ring queue of the same name as the tap, with address settings that keep the copy bounded and make it
// vanish instead of moving anywhere (no expiry or dead-letter address, no auto-created expiry resources, DROP when
// full). The reads (diverts, security) feed the reconciler's diff and preflight; the writes (`captureWrites`) are
// imported only by the capture reconciler's apply step, which audits each one first
// (test/architecture/broker-writes.test.ts). Every call goes through the node's ManagementClient, hence its limiter.
import { ManagementError } from './management-error.ts';
import type { CallResult, ManagementClient } from './management-client.ts';
import { queueObjectName } from './management-browse.ts';

export interface DivertInfo {
  readonly name: string;
  readonly address: string;
  readonly forwardingAddress: string;
  readonly exclusive: boolean;
  readonly filter: string | null;
}

/** A tap's two names: a divert cannot share its name with the queue (both are bindings of one namespace). */
export interface TapNames {
  /** The capture address's and the capture queue's name. */
  readonly queue: string;
  readonly divert: string;
}

export interface TapSpec extends TapNames {
  readonly sourceAddress: string;
  readonly ringSize: number;
  readonly expiryDelayMs: number;
}

/** One role as the broker's getRolesAsJSON reports it (only the permissions the preflight compares). */
export interface RolePermissions {
  readonly name: string;
  readonly consume: boolean;
  readonly browse: boolean;
}

export interface CaptureSecurity {
  readonly securityEnabled: boolean;
  readonly sourceRoles: readonly RolePermissions[];
  readonly captureRoles: readonly RolePermissions[];
}

function valueOf(result: CallResult | undefined, client: ManagementClient): unknown {
  if (!result) throw new ManagementError('broker-error', 'the broker returned no answer', client.nodeKey);
  if (!result.ok) throw result.error;
  return result.value;
}

async function serverExec(client: ManagementClient, operation: string, args: unknown[]): Promise<unknown> {
  const mbean = await client.brokerObjectName();
  return valueOf((await client.call([{ type: 'exec', mbean, operation, arguments: args }]))[0], client);
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

const divertsRead = (broker: string) =>
  ({
    type: 'read',
    mbean: `${broker},component=addresses,address=*,subcomponent=diverts,divert=*`,
    attribute: ['Address', 'ForwardingAddress', 'Exclusive', 'Filter'],
  }) as const;

/** Every divert of the node with what the preflight and the diff need; one read of every divert MBean. */
export async function listDiverts(client: ManagementClient): Promise<DivertInfo[]> {
  const [result] = await client.call([divertsRead(await client.brokerObjectName())]);
  return divertsOf(result, client);
}

/**
 * What the reconciler compares with the subscriptions, in one POST: every divert of the node, and the names of its
 * queues that start with `queuePrefix` (a tap's queue left without its divert is found by its name).
 */
export async function readTapInventory(
  client: ManagementClient,
  queuePrefix: string,
): Promise<{ diverts: DivertInfo[]; queues: string[] }> {
  const broker = await client.brokerObjectName();
  const [diverts, queueNames] = await client.call([
    divertsRead(broker),
    { type: 'read', mbean: broker, attribute: 'QueueNames' },
  ]);
  const names = valueOf(queueNames, client);
  return {
    diverts: divertsOf(diverts, client),
    queues: Array.isArray(names) ? names.map(text).filter((name) => name.startsWith(queuePrefix)) : [],
  };
}

function divertsOf(result: CallResult | undefined, client: ManagementClient): DivertInfo[] {
  // A pattern that matches nothing is answered as an unknown MBean.
  if (result && !result.ok && result.error.kind === 'not-found') return [];
  const found = valueOf(result, client);
  if (!found || typeof found !== 'object') return [];
  return Object.entries(found as Record<string, Record<string, unknown>>).map(([objectName, attributes]) => ({
    name: divertNameOf(objectName),
    address: text(attributes.Address),
    forwardingAddress: text(attributes.ForwardingAddress),
    exclusive: attributes.Exclusive === true,
    filter: text(attributes.Filter) || null,
  }));
}

/** The `divert` key of a divert's object name, unquoted. */
function divertNameOf(objectName: string): string {
  const match = /[,:]divert=("(?:[^"\\]|\\.)*"|[^,]*)/.exec(objectName);
  const raw = match?.[1] ?? '';
  return raw.startsWith('"') ? raw.slice(1, -1).replace(/\\n/g, '\n').replace(/\\(.)/g, '$1') : raw;
}

function rolesOf(json: unknown): RolePermissions[] {
  const parsed: unknown = typeof json === 'string' ? JSON.parse(json) : [];
  if (!Array.isArray(parsed)) return [];
  return parsed.map((role: Record<string, unknown>) => ({
    name: text(role.name),
    consume: role.consume === true,
    browse: role.browse === true,
  }));
}

/** Whether security is on, and the roles that match the source and the capture address; one POST. */
export async function readCaptureSecurity(
  client: ManagementClient,
  sourceAddress: string,
  captureAddress: string,
): Promise<CaptureSecurity> {
  const mbean = await client.brokerObjectName();
  const [enabled, source, capture] = await client.call([
    { type: 'read', mbean, attribute: 'SecurityEnabled' },
    { type: 'exec', mbean, operation: 'getRolesAsJSON(java.lang.String)', arguments: [sourceAddress] },
    { type: 'exec', mbean, operation: 'getRolesAsJSON(java.lang.String)', arguments: [captureAddress] },
  ]);
  return {
    securityEnabled: valueOf(enabled, client) === true,
    sourceRoles: rolesOf(valueOf(source, client)),
    captureRoles: rolesOf(valueOf(capture, client)),
  };
}

/** The bounds a tap has on its node now: its queue's ring size and its address's expiry delay. */
export interface TapShape {
  readonly ringSize: number;
  readonly expiryDelayMs: number;
}

/**
 * The tap's queue's bounds on the node, or undefined when the queue is missing (a non-durable queue is gone after a
 * broker restart); one POST for both reads.
 */
export async function readTapShape(client: ManagementClient, name: string): Promise<TapShape | undefined> {
  const broker = await client.brokerObjectName();
  const mbean = queueObjectName(broker, { address: name, queue: name, routingType: 'ANYCAST' });
  const [ringSize, settings] = await client.call([
    { type: 'read', mbean, attribute: 'RingSize' },
    { type: 'exec', mbean: broker, operation: 'getAddressSettingsAsJSON(java.lang.String)', arguments: [name] },
  ]);
  if (ringSize && !ringSize.ok && ringSize.error.kind === 'not-found') return undefined;
  const parsed = JSON.parse(text(valueOf(settings, client)) || '{}') as Record<string, unknown>;
  return { ringSize: Number(valueOf(ringSize, client)), expiryDelayMs: Number(parsed.expiryDelay ?? -1) };
}

/** The capture address's settings: bounded, dropped when full or expired, never moved to another address. */
function tapAddressSettings(spec: TapSpec): Record<string, unknown> {
  return {
    defaultRingSize: spec.ringSize,
    addressFullMessagePolicy: 'DROP',
    expiryDelay: spec.expiryDelayMs,
    autoCreateExpiryResources: false,
    autoCreateDeadLetterResources: false,
    // A capture consumer that reconnects after a broker restart (the non-durable queue gone) must be refused, not
    // given a durable auto-created queue of the same name without the tap's bounds; the next pass makes it again.
    autoCreateQueues: false,
    autoCreateAddresses: false,
    // Empty, not absent: an absent key would inherit the `#` match's ExpiryQueue / DLQ, and a copy of production
    // payload would land there. The broker drops an expired message when the expiry address is empty.
    expiryAddress: '',
    deadLetterAddress: '',
  };
}

/** Sets (or replaces) the capture address's settings: idempotent, so install and a change of bounds share it. */
async function applyTapAddressSettings(client: ManagementClient, spec: TapSpec): Promise<void> {
  await serverExec(client, 'addAddressSettings(java.lang.String,java.lang.String)', [
    spec.queue,
    JSON.stringify(tapAddressSettings(spec)),
  ]);
}

export const captureWrites = {
  /**
   * Settings, then queue, then divert, so no copy is ever routed into a queue without its bounds. Each step is
   * idempotent: the queue is created only if missing, and a divert of the same name already there is left as it is.
   */
  installTap: async (client: ManagementClient, spec: TapSpec, divertPresent: boolean): Promise<void> => {
    await applyTapAddressSettings(client, spec);
    const queue = {
      name: spec.queue,
      address: spec.queue,
      'routing-type': 'ANYCAST',
      durable: false,
      'ring-size': spec.ringSize,
      'auto-create-address': true,
      'purge-on-no-consumers': false,
    };
    await serverExec(client, 'createQueue(java.lang.String,boolean)', [JSON.stringify(queue), true]);
    if (divertPresent) return;
    const divert = {
      name: spec.divert,
      'routing-name': spec.divert,
      address: spec.sourceAddress,
      'forwarding-address': spec.queue,
      exclusive: false,
      // The capture queue is anycast: a copy of a multicast message must still reach it.
      'routing-type': 'ANYCAST',
    };
    await serverExec(client, 'createDivert(java.lang.String)', [JSON.stringify(divert)]);
  },

  /**
   * New bounds for a tap already in place (its settings changed since it was installed): the address settings first,
   * then the queue's ring size; the divert and the messages the queue holds are left as they are.
   */
  reshapeTap: async (client: ManagementClient, spec: TapSpec): Promise<void> => {
    await applyTapAddressSettings(client, spec);
    await serverExec(client, 'updateQueue(java.lang.String)', [
      JSON.stringify({ name: spec.queue, address: spec.queue, 'routing-type': 'ANYCAST', 'ring-size': spec.ringSize }),
    ]);
  },

  /** Divert first (no more copies), then the queue and its address, then the settings; what is missing is skipped. */
  removeTap: async (client: ManagementClient, names: TapNames): Promise<void> => {
    const broker = await client.brokerObjectName();
    const [divert, queue, address] = await client.call([
      { type: 'exec', mbean: broker, operation: 'destroyDivert(java.lang.String)', arguments: [names.divert] },
      {
        type: 'exec',
        mbean: broker,
        operation: 'destroyQueue(java.lang.String,boolean,boolean)',
        arguments: [names.queue, true, true],
      },
      {
        type: 'exec',
        mbean: broker,
        operation: 'deleteAddress(java.lang.String,boolean)',
        arguments: [names.queue, true],
      },
    ]);
    await serverExec(client, 'removeAddressSettings(java.lang.String)', [names.queue]);
    for (const result of [divert, queue, address])
      if (result && !result.ok && !isAbsent(result.error)) throw result.error;
  },
};

/** The broker's answer for something already gone (no binding, no queue, no address). */
function isAbsent(error: ManagementError): boolean {
  return (
    error.kind === 'not-found' ||
    /does not exist|no binding for divert|is not a divert|AMQ229012|AMQ229013|AMQ229017|AMQ229203/i.test(error.message)
  );
}
