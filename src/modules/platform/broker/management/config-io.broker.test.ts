// The brokerconfig reads and writes on a real broker (a leased node): each kind written through configWrites.apply
// and read back typed by readConfigSnapshot, in one POST (two with the values in force), a bridge's password never
// read back nor told in an error, and every destroy or remove seen gone. Diverts, bridges and security settings are
// not under the lease's clean-up, so the suite removes its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseSingleNode } from '@test/artemis/lease.ts';
import { brokerMbean, jolokia, jolokiaExec } from '@test/jolokia.ts';
import { ManagementClient } from './management-client.ts';
import { ManagementError } from './management-error.ts';
import { readConfigSnapshot } from './config-reads.ts';
import { configWrites } from './config-writes.ts';
import type {
  BridgeWrite,
  ConfigBridge,
  ConfigReadRequest,
  ConfigRole,
  DivertWrite,
  QueueWrite,
} from './config-snapshot.ts';

const broker = leaseSingleNode();
const [node] = broker.nodes;
if (!node) throw new Error('the lease has a node');
const settingsMatch = broker.name('cfg.#');
const securityMatch = broker.name('cfg.sec.#');
const source = broker.name('cfg.in');
const target = broker.name('cfg.out');
const divertName = broker.name('cfg.divert');
const bridgeName = broker.name('cfg.bridge');
const concurrentBridge = broker.name('cfg.bridge.concurrent');
// The pooled node has no connector of its own: the suite adds one to the node's own acceptor.
const connector = broker.name('cfg.connector');
const PASSWORD = 'Pw"with\\quote-and-more';
let client: ManagementClient;
let calls = 0;

const queue = (name: string, overrides: Partial<QueueWrite> = {}): QueueWrite => ({
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
  ...overrides,
});

const role = (name: string, granted: readonly (keyof ConfigRole)[]): ConfigRole => ({
  name,
  send: granted.includes('send'),
  consume: granted.includes('consume'),
  createDurableQueue: granted.includes('createDurableQueue'),
  deleteDurableQueue: granted.includes('deleteDurableQueue'),
  createNonDurableQueue: granted.includes('createNonDurableQueue'),
  deleteNonDurableQueue: granted.includes('deleteNonDurableQueue'),
  manage: granted.includes('manage'),
  browse: granted.includes('browse'),
  createAddress: granted.includes('createAddress'),
  deleteAddress: granted.includes('deleteAddress'),
});

const read = (request: Partial<ConfigReadRequest> = {}) =>
  readConfigSnapshot(client, { addressMatches: [], securityMatches: [], ...request });

/** POSTs made by `action` (the client's call counted; the broker's name is cached by then). */
async function postsOf<T>(action: () => Promise<T>): Promise<{ value: T; posts: number }> {
  const before = calls;
  const value = await action();
  return { value, posts: calls - before };
}

beforeAll(async () => {
  client = new ManagementClient({ url: node.managementUrl, user: node.user, password: node.password });
  const call = client.call.bind(client);
  client.call = (requests, tally) => {
    calls += 1;
    return call(requests, tally);
  };
  await client.brokerObjectName();
  await jolokiaExec(node, brokerMbean(node.name), 'addConnector(java.lang.String,java.lang.String)', [
    connector,
    `tcp://127.0.0.1:${node.amqpPort}`,
  ]);
  await configWrites.apply(client, { op: 'createQueue', queue: queue(source) });
  await configWrites.apply(client, { op: 'createQueue', queue: queue(target) });
});

afterAll(async () => {
  const leftovers = [
    { op: 'destroyBridge', name: bridgeName },
    { op: 'destroyBridge', name: concurrentBridge },
    { op: 'destroyDivert', name: divertName },
    { op: 'removeSecuritySettings', match: securityMatch },
    { op: 'removeAddressSettings', match: settingsMatch },
  ] as const;
  for (const write of leftovers) await configWrites.apply(client, write).catch(() => undefined);
  await jolokiaExec(node, brokerMbean(node.name), 'removeConnector(java.lang.String)', [connector]).catch(
    () => undefined,
  );
  client.close();
  await broker.stop();
});

describe('configuration reads and writes', () => {
  it('read in one POST, and in two when the values in force are asked for', async () => {
    const once = await postsOf(() => read({ addressMatches: [settingsMatch], serviceUser: node.user }));
    expect(once.posts).toBe(1);
    expect(once.value.posts).toBe(1);
    expect(once.value.inForce.size).toBe(0);
    expect(once.value.addresses).toEqual(expect.arrayContaining([source, target]));
    expect(once.value.serviceUser).toEqual({ username: node.user, roles: ['amq'] });
    const twice = await postsOf(() => read({ addressMatches: [settingsMatch], inForceFor: () => [source, target] }));
    expect(twice.posts).toBe(2);
    expect(twice.value.posts).toBe(2);
    expect([...twice.value.inForce.keys()]).toEqual([source, target]);
    expect(twice.value.inForce.get(source)).toHaveProperty('managementBrowsePageSize');
  });

  it('an unknown service user reads as a user without roles (listUser answers so), not as a failed read', async () => {
    const username = broker.name('nobody');
    expect((await read({ serviceUser: username })).serviceUser).toEqual({ username, roles: [] });
  });

  it('write the whole address-settings object at a match and remove it', async () => {
    const settings = { deadLetterAddress: broker.name('dla'), maxDeliveryAttempts: 3, redeliveryDelay: 250 };
    await configWrites.apply(client, { op: 'addAddressSettings', match: settingsMatch, settings });
    const written = (await read({ addressMatches: [settingsMatch] })).addressSettings.get(settingsMatch);
    expect(written).toMatchObject(settings);
    // Replaced whole: a second object without the delay leaves no delay behind.
    await configWrites.apply(client, {
      op: 'addAddressSettings',
      match: settingsMatch,
      settings: { maxDeliveryAttempts: 4 },
    });
    const replaced = (await read({ inForceFor: () => [source] })).inForce.get(source);
    expect(replaced).toMatchObject({ maxDeliveryAttempts: 4 });
    expect(replaced?.deadLetterAddress).not.toBe(settings.deadLetterAddress);
    await configWrites.apply(client, { op: 'removeAddressSettings', match: settingsMatch });
    const removed = (await read({ addressMatches: [settingsMatch] })).addressSettings.get(settingsMatch);
    expect(removed?.maxDeliveryAttempts).not.toBe(4);
  });

  it('write the roles of a security match, read without view and edit, and remove them', async () => {
    const roles = [
      role('amq', ['send', 'consume', 'createDurableQueue', 'manage', 'browse', 'createAddress', 'deleteAddress']),
      role('cfgreader', ['consume', 'browse']),
    ];
    await configWrites.apply(client, { op: 'addSecuritySettings', match: securityMatch, roles });
    const read1 = (await read({ securityMatches: [securityMatch] })).securitySettings.get(securityMatch) ?? [];
    expect([...read1].sort((a, b) => a.name.localeCompare(b.name))).toEqual(roles);
    await configWrites.apply(client, { op: 'removeSecuritySettings', match: securityMatch });
    const read2 = (await read({ securityMatches: [securityMatch] })).securitySettings.get(securityMatch) ?? [];
    expect(read2.map((entry) => entry.name)).not.toContain('cfgreader');
  });

  it('refuse a role whose name sits inside another one’s at the same match', async () => {
    const roles = [role('amq', ['send']), role('amq-admin', ['manage'])];
    await expect(
      configWrites.apply(client, { op: 'addSecuritySettings', match: securityMatch, roles }),
    ).rejects.toThrow(/part of "amq-admin"/);
  });

  it('create, update (filter kept or cleared) and destroy a queue', async () => {
    const name = broker.name('cfg.q');
    const created = queue(name, { filter: "color = 'red'", maxConsumers: 5, exclusive: true, groupBuckets: 8 });
    await configWrites.apply(client, { op: 'createQueue', queue: created });
    const row = (await read()).queues.find((entry) => entry.name === name);
    expect(row).toEqual({
      ...created,
      autoCreated: false,
      temporary: false,
      internal: false,
      messageCount: 0,
      deliveringCount: 0,
      scheduledCount: 0,
      consumerCount: 0,
    });
    await configWrites.apply(client, { op: 'updateQueue', queue: { ...created, maxConsumers: 7 } });
    expect((await read()).queues.find((entry) => entry.name === name)).toMatchObject({
      maxConsumers: 7,
      filter: "color = 'red'",
    });
    await configWrites.apply(client, { op: 'updateQueue', queue: { ...created, filter: null } });
    expect((await read()).queues.find((entry) => entry.name === name)?.filter).toBeNull();
    await configWrites.apply(client, { op: 'destroyQueue', name });
    expect((await read()).queues.map((entry) => entry.name)).not.toContain(name);
  });

  it('create, update with the full JSON and destroy a divert', async () => {
    const divert: DivertWrite = {
      name: divertName,
      routingName: divertName,
      address: source,
      forwardingAddress: target,
      exclusive: false,
      filter: "kind = 'copy'",
      routingType: 'ANYCAST',
      transformerClassName: null,
    };
    await configWrites.apply(client, { op: 'createDivert', divert });
    expect((await read()).diverts.find((entry) => entry.name === divertName)).toEqual(divert);
    const updated = { ...divert, filter: null, routingType: 'PASS' as const };
    await configWrites.apply(client, { op: 'updateDivert', divert: updated });
    expect((await read()).diverts.find((entry) => entry.name === divertName)).toEqual(updated);
    await configWrites.apply(client, { op: 'destroyDivert', name: divertName });
    expect((await read()).diverts.map((entry) => entry.name)).not.toContain(divertName);
  });

  it('create a bridge to a connector of the broker, never read or tell its password, and destroy it', async () => {
    const connectors = JSON.parse(
      (await jolokia(node, { type: 'read', mbean: brokerMbean(node.name), attribute: 'ConnectorsAsJSON' })) as string,
    ) as Array<{ name: string }>;
    expect(connectors.map((entry) => entry.name)).toContain(connector);
    const readable: ConfigBridge = {
      name: bridgeName,
      queueName: source,
      forwardingAddress: target,
      filter: "kind = 'bridged'",
      transformerClassName: null,
      staticConnectors: [connector],
      discoveryGroupName: null,
      ha: false,
      retryInterval: 1_500,
      retryIntervalMultiplier: 2,
      maxRetryInterval: 30_000,
      reconnectAttempts: 5,
      useDuplicateDetection: true,
    };
    const bridge: BridgeWrite = { ...readable, user: node.user, password: PASSWORD };
    await configWrites.apply(client, { op: 'createBridge', bridge });
    const snapshot = await read();
    expect(snapshot.bridges.find((entry) => entry.name === bridgeName)).toEqual(readable);
    const shown = JSON.stringify(snapshot, (_key, value: unknown) => (value instanceof Map ? [...value] : value));
    expect(shown).not.toContain(PASSWORD);
    expect(shown).not.toContain(JSON.stringify(PASSWORD).slice(1, -1));
    await configWrites.apply(client, { op: 'destroyBridge', name: bridgeName });
    expect((await read()).bridges.map((entry) => entry.name)).not.toContain(bridgeName);
  });

  it('fold the instances of a bridge deployed with concurrency into one bridge', async () => {
    // Concurrency is not a field Flotilla writes (it cannot be read back): deployed directly, as someone else would.
    await jolokiaExec(node, brokerMbean(node.name), 'createBridge(java.lang.String)', [
      JSON.stringify({
        name: concurrentBridge,
        'queue-name': source,
        'forwarding-address': target,
        'static-connectors': [connector],
        concurrency: 2,
      }),
    ]);
    const listed = (await jolokia(node, {
      type: 'read',
      mbean: brokerMbean(node.name),
      attribute: 'BridgeNames',
    })) as string[];
    expect(listed.filter((name) => name.startsWith(concurrentBridge)).sort()).toEqual([
      `${concurrentBridge}-0`,
      `${concurrentBridge}-1`,
    ]);
    const bridges = (await read()).bridges.filter((entry) => entry.name.startsWith(concurrentBridge));
    expect(bridges.map((entry) => entry.name)).toEqual([concurrentBridge]);
    expect(bridges[0]).toMatchObject({ queueName: source, forwardingAddress: target, staticConnectors: [connector] });
    await configWrites.apply(client, { op: 'destroyBridge', name: concurrentBridge });
    expect((await read()).bridges.map((entry) => entry.name)).not.toContain(concurrentBridge);
  });
});

describe('a bridge password in a broker error', () => {
  it('is hidden in every spelling the broker could echo', async () => {
    const echoing = {
      nodeKey: 'http://broker.invalid/console/jolokia',
      brokerObjectName: () => Promise.resolve(brokerMbean('b')),
      callOne: (request: { arguments: readonly unknown[] }) => {
        const json = String(request.arguments[0]);
        const message = `java.lang.Exception : bad ${json} / ${JSON.stringify(json)} / ${PASSWORD}`;
        return Promise.reject(new ManagementError('broker-error', message, 'http://broker.invalid/console/jolokia'));
      },
    } as unknown as ManagementClient;
    const bridge: BridgeWrite = {
      name: 'b',
      queueName: 'q',
      forwardingAddress: null,
      filter: null,
      transformerClassName: null,
      staticConnectors: ['c'],
      discoveryGroupName: null,
      ha: false,
      retryInterval: 1_000,
      retryIntervalMultiplier: 1,
      maxRetryInterval: 2_000,
      reconnectAttempts: -1,
      useDuplicateDetection: true,
      password: PASSWORD,
    };
    const failure = await configWrites.apply(echoing, { op: 'createBridge', bridge }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ManagementError);
    const error = failure as ManagementError;
    expect(error.cause).toBeUndefined();
    const text = `${error.message} ${JSON.stringify(error.toProblem())}`;
    expect(text).toContain('bad');
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(JSON.stringify(PASSWORD).slice(1, -1));
    expect(text).not.toContain('with\\');
  });
});
