// The management client against real Artemis brokers: batching, paging, error classification, node isolation,
// truncation flags in browse, and the capability probe's verdicts.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '@/base/db/embedded-postgres.ts';
import { startSingleNode, type BrokerNode, type Topology } from '@test/artemis/index.ts';
import { startFaultProxy, type FaultProxy } from '@test/artemis/fault-proxy.ts';
import { eventually } from '@test/eventually.ts';
import { createQueues, destroyQueues, listAll, listResourcePages, readBrokerState } from './broker-operations.ts';
import { currentReport } from './health-report.worker.ts';
import { probeCapabilities } from './capability-probe.ts';
import { browseQueue, queueObjectName } from './management-browse.ts';
import { ManagementClient, type ManagementEndpoint, type PostTally } from './management-client.ts';
import { ManagementError } from './management-error.ts';

const execFileAsync = promisify(execFile);
const SIZE_LIMIT = 40;
const VIEWER = { user: 'viewer', password: 'viewer-secret', role: 'viewer' };

// Lowers the browse size limit for `trunc.#` only, so the default (256) still applies elsewhere.
const lowerSizeLimit = (xml: string) =>
  xml.replace(
    '<address-settings>',
    `<address-settings>
      <address-setting match="trunc.#">
        <management-message-attribute-size-limit>${SIZE_LIMIT}</management-message-attribute-size-limit>
      </address-setting>`,
  );

// The read-only role may list, read and browse but nothing else (management.xml role-access).
const readOnlyViewer = (xml: string) =>
  xml.replace(/(<access method="(?:list|get|is|browse)\*" roles=")amq"/g, `$1amq,${VIEWER.role}"`);

const endpointOf = (node: BrokerNode, overrides: Partial<ManagementEndpoint> = {}): ManagementEndpoint => ({
  url: node.managementUrl,
  user: node.user,
  password: node.password,
  ...overrides,
});

async function failureOf(promise: Promise<unknown>): Promise<ManagementError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ManagementError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

let topology: Topology;
let stoppedTopology: Topology;
let node: BrokerNode;
let stoppedNode: BrokerNode;
let client: ManagementClient;
const clients: ManagementClient[] = [];
const proxies: FaultProxy[] = [];

function clientFor(endpoint: ManagementEndpoint, timeoutMs = 10_000): ManagementClient {
  const created = new ManagementClient(endpoint, { maxConcurrentCalls: 4, maxCallsPerSecond: 1000, timeoutMs });
  clients.push(created);
  return created;
}

beforeAll(async () => {
  [topology, stoppedTopology] = await Promise.all([
    startSingleNode({
      name: 'mgmt1',
      brokerXmlEdits: lowerSizeLimit,
      managementXmlEdits: readOnlyViewer,
      extraUsers: [VIEWER],
    }),
    startSingleNode({ name: 'doomed' }),
  ]);
  node = topology.nodes[0] as BrokerNode;
  stoppedNode = stoppedTopology.nodes[0] as BrokerNode;
  await stoppedNode.stop();
  client = clientFor(endpointOf(node));
});

afterAll(async () => {
  for (const created of clients) created.close();
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await Promise.all([topology.stop(), stoppedTopology.stop()]);
});

describe('management client on a real broker', () => {
  it('reads many attributes and runs operations in one batched POST, answers in request order', async () => {
    const mbean = await client.brokerObjectName();
    expect(mbean).toBe('org.apache.activemq.artemis:broker="mgmt1"');
    const results = await client.call([
      { type: 'read', mbean, attribute: ['Version', 'Active', 'Started', 'ReplicaSync', 'NodeID'] },
      { type: 'read', mbean, attribute: 'Name' },
      { type: 'exec', mbean, operation: 'listNetworkTopology()', arguments: [] },
      { type: 'read', mbean: 'org.apache.activemq.artemis:broker="no-such-broker"', attribute: 'Name' },
    ]);
    expect(results.map((result) => result.ok)).toEqual([true, true, true, false]);
    const [attributes, name, , missing] = results;
    expect(attributes?.ok && attributes.value).toMatchObject({ Version: '2.44.0', Active: true, Started: true });
    expect(name?.ok && name.value).toBe('mgmt1');
    expect(missing?.ok === false && missing.error.kind).toBe('not-found');
    const state = await readBrokerState(client);
    expect(state).toMatchObject({ name: 'mgmt1', version: '2.44.0', active: true, backup: false });
    expect(state.nodeId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('pages through 2,000 queues, several pages per POST, each queue exactly once', async () => {
    const names = Array.from({ length: 2_000 }, (_, i) => `paging.q.${String(i).padStart(4, '0')}`);
    for (let start = 0; start < names.length; start += 500) {
      await createQueues(
        client,
        names.slice(start, start + 500).map((name) => ({ name })),
      );
    }
    const filter = { field: 'name', operation: 'CONTAINS' as const, value: 'paging.q.' };
    const all = await listAll(client, 'queues', { filter, sort: { field: 'name', order: 'asc' }, pageSize: 150 }, 5);
    expect(all.total).toBe(2_000);
    expect(all.rows.map((row) => row.name)).toEqual(names);
    const [page3, page14] = await listResourcePages(client, 'queues', [
      { filter, sort: { field: 'name', order: 'desc' }, page: 3, pageSize: 150 },
      { filter, sort: { field: 'name', order: 'desc' }, page: 14, pageSize: 150 },
    ]);
    expect(page3?.rows[0]?.name).toBe(names[2_000 - 301]);
    expect(page14?.rows).toHaveLength(50); // the last, partial page
  });

  it('lists every queue while others are removed: a listing that raced a removal is asked again, not failed', async () => {
    // The broker lists the queues, then looks each one up: one destroyed in between fails the whole listing with a
    // NullPointerException. A queue is made and destroyed every 250 ms or so here while the 2,000 of the test before
    // are listed (some 150 ms a listing on a quiet machine), until three listings have raced; none may fail.
    const mbean = await client.brokerObjectName();
    const churner = clientFor(endpointOf(node));
    const stopChurn = new AbortController();
    const churn = (async () => {
      for (let round = 0; !stopChurn.signal.aborted; round++) {
        await createQueues(churner, [{ name: `churn.${String(round)}` }]);
        await destroyQueues(churner, [`churn.${String(round)}`]);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    const listing = {
      type: 'exec' as const,
      mbean,
      operation: 'listQueues(java.lang.String,int,int)',
      arguments: [JSON.stringify({ field: '', operation: '', value: '' }), 1, 10_000],
    };
    const tally: PostTally = { posts: 0 };
    let listings = 0;
    try {
      while (tally.posts - listings < 3 && listings < 300) {
        const [result] = await client.call([listing], tally);
        listings++;
        expect(result?.ok ? 'listed' : result?.error.message).toBe('listed');
      }
    } finally {
      stopChurn.abort();
      await churn;
    }
    expect(
      tally.posts - listings,
      `listings repeated in ${String(listings)}: the race was not met`,
    ).toBeGreaterThanOrEqual(3);
  }, 90_000);

  it('classifies a wrong password, a wrong port, the messaging port, a stopped node, a refused Origin and a missing operation', async () => {
    // `version`, not brokerObjectName(): the broker name is cached per URL, so the lookup would not reach the broker.
    const wrongPassword = await failureOf(
      clientFor(endpointOf(node, { password: 'wrong' })).callOne({ type: 'version' }),
    );
    expect(wrongPassword.kind).toBe('auth-failed');
    expect(wrongPassword.configSnippet).toContain('HAWTIO_ROLES');

    const unusedPort = await findFreePort();
    const wrongPort = await failureOf(
      clientFor(endpointOf(node, { url: `http://127.0.0.1:${unusedPort}/console/jolokia` })).brokerObjectName(),
    );
    expect(wrongPort.kind).toBe('unreachable');
    expect(wrongPort.message).toContain('ECONNREFUSED');

    // The all-protocol acceptor sometimes answers an HTTP POST with an empty 200 and sometimes waits for more
    // bytes: either way the call must fail as "not Jolokia here" or as a timeout, never succeed or look like auth.
    const messagingPort = await failureOf(
      clientFor(endpointOf(node, { url: `http://127.0.0.1:${node.amqpPort}/console/jolokia` }), 2_000).callOne({
        type: 'version',
      }),
    );
    expect(['unreachable', 'timeout']).toContain(messagingPort.kind);

    const stopped = await failureOf(clientFor(endpointOf(stoppedNode)).brokerObjectName());
    expect(stopped.kind).toBe('unreachable');
    expect(stopped.configSnippet).toContain('<binding');

    const badOrigin = await failureOf(
      clientFor(endpointOf(node, { origin: 'http://elsewhere.example' })).callOne({ type: 'version' }),
    );
    expect(badOrigin.kind).toBe('forbidden');
    expect(badOrigin.configSnippet).toContain('<allow-origin>');

    const mbean = await client.brokerObjectName();
    const missingOperation = await failureOf(
      client.callOne({ type: 'exec', mbean, operation: 'noSuchOperation()', arguments: [] }),
    );
    expect(missingOperation.kind).toBe('not-found');

    const brokerError = await failureOf(
      client.callOne({ type: 'exec', mbean, operation: 'destroyQueue(java.lang.String)', arguments: ['absent.queue'] }),
    );
    expect(brokerError.kind).toBe('broker-error');
    expect(brokerError.message).toContain('AMQ229017');
  });

  it('classifies a silent node as timeout, and neither it nor a stopped node slows calls to a live one', async () => {
    const blackhole = await startFaultProxy(node.managementPort, { kind: 'blackhole' });
    proxies.push(blackhole);
    const silent = clientFor(endpointOf(node, { url: blackhole.url('http', '/console/jolokia') }), 3_000);
    const stopped = clientFor(endpointOf(stoppedNode), 3_000);
    const silentCall = failureOf(silent.callOne({ type: 'version' }));
    const stoppedCalls = Promise.all(Array.from({ length: 8 }, () => failureOf(stopped.callOne({ type: 'version' }))));

    const started = performance.now();
    const mbean = await client.brokerObjectName();
    for (let i = 0; i < 10; i++) await client.callOne({ type: 'read', mbean, attribute: 'Active' });
    const liveElapsed = performance.now() - started;

    expect((await silentCall).kind).toBe('timeout');
    expect((await stoppedCalls).every((error) => error.kind === 'unreachable')).toBe(true);
    expect(liveElapsed).toBeLessThan(2_000); // well under the 3 s the silent node takes to time out
  });

  it('reports per-node outcome and limiter wait in the worker report the brokers health indicator reads', async () => {
    await failureOf(clientFor(endpointOf(stoppedNode)).brokerObjectName());
    await client.callOne({ type: 'version' });
    const { nodes } = currentReport();
    expect(nodes.find((entry) => entry.node === stoppedNode.managementUrl)).toMatchObject({
      status: 'DEGRADED',
      lastError: { kind: 'unreachable' },
    });
    const live = nodes.find((entry) => entry.node === node.managementUrl);
    expect(live).toMatchObject({ status: 'UP' });
    expect(live?.limiterWaitMs).toEqual(expect.objectContaining({ last: expect.any(Number) as number }));
  });

  it('flags messages the broker truncated in a management browse and says how to raise the limit', async () => {
    const target = { address: 'trunc.orders', queue: 'trunc.orders', routingType: 'ANYCAST' as const };
    await createQueues(client, [{ name: target.queue }]);
    const queueMbean = queueObjectName(await client.brokerObjectName(), target);
    const send = (body: string, headers: Record<string, string>) => ({
      type: 'exec' as const,
      mbean: queueMbean,
      operation: 'sendMessage(java.util.Map,int,java.lang.String,boolean,java.lang.String,java.lang.String)',
      arguments: [headers, 3, body, true, node.user, node.password],
    });
    const sent = await client.call([
      send('short', { note: 'small' }),
      send('x'.repeat(500), { note: 'small' }),
      send('short', { note: 'y'.repeat(200) }),
    ]);
    expect(sent.every((result) => result.ok)).toBe(true);

    // A sent message reaches the queue's browsable list a moment after the send answers (a loaded machine saw an
    // empty first browse), so browse until all three are there.
    const result = await eventually(
      'the three sent messages to be browsable',
      async () => {
        const browsed = await browseQueue(client, target);
        return browsed.messages.length === 3 ? browsed : undefined;
      },
      10_000,
      200,
    );
    expect(result.channel).toBe('management');
    expect(result.attributeSizeLimit).toBe(SIZE_LIMIT);
    expect(result.messages.map((message) => message.bodyTruncated)).toEqual([false, true, true]);
    expect(result.messages[1]?.truncatedFields).toContain('text');
    expect(result.messages[2]?.truncatedFields).toContain('StringProperties.note');
    expect(result.raiseLimitSnippet).toContain('<address-setting match="trunc.orders">');
    expect(result.raiseLimitSnippet).toContain('management-message-attribute-size-limit');
  });
});

describe('capability probe on a real broker', () => {
  const notifications = { subscriptionState: () => 'established' as const };

  it('finds read and write available for the admin user', async () => {
    const verdicts = await probeCapabilities(client, { notifications });
    expect(verdicts.MANAGEMENT_READ).toEqual({ status: 'AVAILABLE' });
    expect(verdicts.MANAGEMENT_WRITE).toEqual({ status: 'AVAILABLE' });
    expect(verdicts.NOTIFICATIONS).toEqual({ status: 'AVAILABLE' });
    expect(verdicts.MESSAGE_IO.status).toBe('UNKNOWN');
  });

  it('finds write unavailable for a read-only user, with the management.xml snippet', async () => {
    const viewer = clientFor(endpointOf(node, { user: VIEWER.user, password: VIEWER.password }));
    const verdicts = await probeCapabilities(viewer, {
      notifications: { subscriptionState: () => ({ refused: 'AMQ229032: no permission CREATE_NON_DURABLE_QUEUE' }) },
    });
    expect(verdicts.MANAGEMENT_READ).toEqual({ status: 'AVAILABLE' });
    expect(verdicts.MANAGEMENT_WRITE).toMatchObject({ status: 'UNAVAILABLE' });
    expect(verdicts.MANAGEMENT_WRITE.status === 'UNAVAILABLE' && verdicts.MANAGEMENT_WRITE.configSnippet).toContain(
      '<role-access>',
    );
    expect(verdicts.NOTIFICATIONS).toMatchObject({ status: 'UNAVAILABLE' });
  });

  it('the probe command prints JSON verdicts and exits non-zero only when management read is unavailable', async () => {
    const run = (args: string[]) =>
      execFileAsync(
        process.execPath,
        ['--import', 'tsx', 'src/modules/platform/broker/management/probe-cli.ts', ...args],
        {
          cwd: process.cwd(),
        },
      ).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: unknown) => {
          const failed = error as { code: number; stdout: string };
          return { code: failed.code, stdout: failed.stdout };
        },
      );
    const good = await run([node.managementUrl, '--user', 'admin', '--password', 'admin', '--amqp', node.amqpUrl]);
    expect(good.code).toBe(0);
    const parsed = JSON.parse(good.stdout) as { verdicts: Record<string, { status: string }> };
    expect(parsed.verdicts.MANAGEMENT_READ?.status).toBe('AVAILABLE');
    expect(parsed.verdicts.MANAGEMENT_WRITE?.status).toBe('AVAILABLE');

    const refused = await run([node.managementUrl, '--user', 'admin', '--password', 'nope']);
    expect(refused.code).toBe(1);
    expect(
      (JSON.parse(refused.stdout) as { verdicts: Record<string, { status: string }> }).verdicts.MANAGEMENT_READ?.status,
    ).toBe('UNAVAILABLE');
  });
});
