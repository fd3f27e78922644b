// Removing a cluster, or one of its nodes, ends what every process held for it. A second web process (a child
// process, as in production, with its own native pool) browses over the native channel; the worker holds the
// notification subscription, the management clients and their health state. After a node is deleted (as the node
// endpoint does: the row goes, then ClusterChanged 'updated') or the cluster is removed over REST, the broker lists
// no AMQP connection of Flotilla's within one cadence and the health report names nothing of it. A node's URLs
// edited: the old URLs' connections and health state end, the new ones are used.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSingleNode, type BrokerNode } from '@test/artemis/index.ts';
import { startHaScenario, type HaScenario } from '@test/worker-kit.ts';
import { brokerMbean, jolokiaExec } from '@test/jolokia.ts';
import { createAnycastQueue, sendDurableMessages, waitFor } from '@test/native-test-helpers.ts';
import { callRest } from '@test/rest-call.ts';
import { signIn, TEST_ADMIN_ENV } from '@test/sign-in.ts';
import { ensureFirstAdmin, syncBuiltInRoles } from '@/modules/kernel/security/index.ts';
import { createRestHandler } from '@/server/http/rest.ts';
import { healthReport } from '@/server/http/health.ts';
import { openWebRuntime, type WebRuntime } from '@/server/runtime/web-runtime.ts';

const QUEUE = 'removal.browsed';
/** The scenario's tier-A interval: one cadence. What a removal ends must be gone within it (plus the report's). */
const CADENCE_MS = 1_000;
// The worker reports every broker.health.report-interval (5 s); a little slack for two cores.
const WITHIN_ONE_CADENCE_MS = CADENCE_MS + 5_000 + 2_000;
const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..', '..', '..', '..');

let scenario: HaScenario;
let node: BrokerNode;
let web: WebRuntime;
let child: WebChild;

/** The AMQP connections the broker holds (Flotilla's native client is the only AMQP user here). */
async function amqpConnections(): Promise<number> {
  const listed = (await jolokiaExec(node, brokerMbean(node.name), 'listConnectionsAsJSON()', [])) as string;
  const connections = JSON.parse(listed) as { implementation?: string }[];
  return connections.filter((connection) => connection.implementation === 'ActiveMQProtonRemotingConnection').length;
}

/** The ids of the AMQP connections the broker holds. */
async function amqpConnectionIds(): Promise<string[]> {
  const listed = (await jolokiaExec(node, brokerMbean(node.name), 'listConnectionsAsJSON()', [])) as string;
  const connections = JSON.parse(listed) as { implementation?: string; connectionID?: string }[];
  return connections
    .filter((connection) => connection.implementation === 'ActiveMQProtonRemotingConnection')
    .map((connection) => String(connection.connectionID));
}

/** The `brokers` component as this instance's health endpoint shows it (the worker's report). */
async function brokersHealth() {
  const report = await healthReport(scenario.runtimes.web);
  const brokers = report.components.brokers;
  const details = (brokers?.details ?? {}) as {
    nodes?: { node: string; status: string }[];
    nativeConnections?: Record<string, number>;
  };
  return { status: brokers?.status, nodes: details.nodes ?? [], nativeConnections: details.nativeConnections ?? {} };
}

/**
 * Another web process of the same instance, as production runs it: its own runtime and native pool, on the same
 * database and bus. It browses through its REST edge when asked, and holds whatever that leaves open.
 */
class WebChild {
  private readonly process: ChildProcessWithoutNullStreams;
  private readonly answers: ((line: string) => void)[] = [];
  private readonly ready: Promise<void>;

  constructor(databaseUrl: string) {
    const script = `
      const root = process.env.REMOVAL_TEST_ROOT;
      const { openWebRuntime } = await import(root + '/src/server/runtime/web-runtime.ts');
      const { createRestHandler } = await import(root + '/src/server/http/rest.ts');
      const { signIn } = await import(root + '/test/support/sign-in.ts');
      const web = await openWebRuntime({ DATABASE_URL: process.env.REMOVAL_TEST_DATABASE_URL, FLOTILLA_INSTANCE_ID: 'removal-child' });
      const rest = createRestHandler(() => Promise.resolve(web));
      const auth = await signIn(rest, 'http://127.0.0.1');
      console.log('READY');
      const lines = (await import('node:readline')).createInterface({ input: process.stdin });
      lines.on('line', async (path) => {
        const response = await rest(new Request('http://127.0.0.1/api/v1' + path, { headers: auth }));
        const body = await response.json();
        console.log('ANSWER ' + JSON.stringify({ status: response.status, channel: body.channel ?? null, detail: body.detail ?? null }));
      });
      lines.on('close', () => web.close().finally(() => process.exit(0)));
    `;
    this.process = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: REPO_ROOT,
      env: { ...process.env, REMOVAL_TEST_ROOT: REPO_ROOT, REMOVAL_TEST_DATABASE_URL: databaseUrl },
    });
    this.process.stderr.on('data', (data: Buffer) => process.stderr.write(`[web child] ${data.toString()}`));
    const lines = createInterface({ input: this.process.stdout });
    this.ready = new Promise((resolve, reject) => {
      this.process.once('exit', (code) => reject(new Error(`the web child exited (${String(code)})`)));
      lines.on('line', (line) => {
        if (line === 'READY') resolve();
        else if (line.startsWith('ANSWER ')) this.answers.shift()?.(line.slice('ANSWER '.length));
      });
    });
  }

  async browse(clusterId: string): Promise<{ status: number; channel: string | null; detail: string | null }> {
    await this.ready;
    const answer = new Promise<string>((resolve) => this.answers.push(resolve));
    this.process.stdin.write(`/clusters/${clusterId}/messages?queue=${QUEUE}\n`);
    return JSON.parse(await answer) as { status: number; channel: string | null; detail: string | null };
  }

  async stop(): Promise<void> {
    if (this.process.exitCode !== null) return;
    const exited = new Promise((resolve) => this.process.once('exit', resolve));
    this.process.stdin.end();
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

/** Browses in the child once the worker's subscription of the cluster's node is live (browse then goes native). */
async function browseNativelyInChild(clusterId: string): Promise<void> {
  await waitFor('a live subscription of the node', async () =>
    (await scenario.runtimes.web.prisma.clusterNodeSubscription.count({ where: { clusterId, state: 'established' } })) >
    0
      ? true
      : undefined,
  );
  const answer = await child.browse(clusterId);
  expect(answer).toMatchObject({ status: 200, channel: 'native' });
}

beforeAll(async () => {
  const topology = await startSingleNode({ name: 'removed1' });
  node = topology.nodes[0] as BrokerNode;
  await createAnycastQueue(node, QUEUE);
  await sendDurableMessages(node, QUEUE, 1);
  scenario = await startHaScenario('removed', topology, CADENCE_MS);
  web = await openWebRuntime({ DATABASE_URL: scenario.databaseUrl, FLOTILLA_INSTANCE_ID: 'removal-web' });
  await syncBuiltInRoles(web.prisma, web.registry.permissionCatalogue());
  await ensureFirstAdmin(web.prisma, TEST_ADMIN_ENV);
  child = new WebChild(scenario.databaseUrl);
});

afterAll(async () => {
  await child.stop();
  await web.close();
  await scenario.stop();
});

describe('removing a node', () => {
  it('ends its management state: a polled node that fails leaves the brokers health report', async () => {
    const { clusterId } = scenario;
    const phantomUrl = 'http://127.0.0.1:1/console/jolokia'; // nothing listens: every poll fails
    const phantomId = randomUUID();
    await web.prisma.clusterNode.create({ data: { id: phantomId, clusterId, managementUrl: phantomUrl } });
    await web.notifications.publish('ClusterChanged', { clusterId, change: 'updated' });
    await waitFor('the phantom node DEGRADED in the brokers health', async () => {
      const health = await brokersHealth();
      return health.nodes.some((entry) => entry.node === phantomUrl && entry.status === 'DEGRADED') ? true : undefined;
    });

    // What the node endpoint does: the row goes, then ClusterChanged 'updated' once committed.
    await web.prisma.clusterNode.delete({ where: { id: phantomId } });
    await web.notifications.publish('ClusterChanged', { clusterId, change: 'updated' });

    await waitFor(
      'the brokers health clean of the phantom node',
      async () => {
        const health = await brokersHealth();
        return health.status === 'UP' && !health.nodes.some((entry) => entry.node === phantomUrl) ? true : undefined;
      },
      WITHIN_ONE_CADENCE_MS,
    );
  });

  it('closes its native connections in the worker and in another web process', async () => {
    const { clusterId } = scenario;
    await browseNativelyInChild(clusterId);
    // The worker's subscription and the child's browse: two connections of Flotilla's.
    expect(await amqpConnections()).toBeGreaterThanOrEqual(2);

    const stored = await web.prisma.clusterNode.findFirstOrThrow({ where: { clusterId } });
    await web.prisma.clusterNode.delete({ where: { id: stored.id } });
    await web.notifications.publish('ClusterChanged', { clusterId, change: 'updated' });
    await waitFor(
      'no AMQP connection of Flotilla’s on the broker',
      async () => ((await amqpConnections()) === 0 ? true : undefined),
      WITHIN_ONE_CADENCE_MS,
    );

    // The node again (a new row): the worker polls and subscribes it again, for the cluster's removal below.
    await web.prisma.clusterNode.create({
      data: {
        id: randomUUID(),
        clusterId,
        managementUrl: stored.managementUrl,
        amqpUrl: stored.amqpUrl,
        brokerName: stored.brokerName,
        brokerNodeId: stored.brokerNodeId,
        role: stored.role,
      },
    });
    await web.notifications.publish('ClusterChanged', { clusterId, change: 'updated' });
    await waitFor('the notification subscription’s AMQP connection again', async () =>
      (await amqpConnections()) > 0 ? true : undefined,
    );
  });
});

describe('editing a node’s URLs', () => {
  it('ends the old URLs’ connections and health state in every process, and uses the new ones', async () => {
    const { clusterId } = scenario;
    await browseNativelyInChild(clusterId);
    const before = await amqpConnectionIds();
    expect(before.length).toBeGreaterThanOrEqual(2);

    // The same broker under other URL text (what PATCH …/nodes/{nodeId} stores, then ClusterChanged 'updated').
    const stored = await web.prisma.clusterNode.findFirstOrThrow({ where: { clusterId } });
    const managementUrl = `${stored.managementUrl}/`;
    await web.prisma.clusterNode.update({
      where: { id: stored.id },
      data: { managementUrl, amqpUrl: `${String(stored.amqpUrl)}/` },
    });
    await web.notifications.publish('ClusterChanged', { clusterId, change: 'updated' });

    await waitFor(
      'the old connections closed and the worker subscribed over the new URL',
      async () => {
        const now = await amqpConnectionIds();
        return now.length > 0 && !now.some((id) => before.includes(id)) ? true : undefined;
      },
      WITHIN_ONE_CADENCE_MS,
    );
    await waitFor(
      'the brokers health naming the new management URL only',
      async () => {
        const health = await brokersHealth();
        const urls = health.nodes.map((entry) => entry.node);
        return health.status === 'UP' && urls.includes(managementUrl) && !urls.includes(stored.managementUrl)
          ? true
          : undefined;
      },
      WITHIN_ONE_CADENCE_MS,
    );
  });
});

describe('removing a cluster', () => {
  it('ends its connections in every process and leaves the brokers health clean', async () => {
    const { clusterId } = scenario;
    await browseNativelyInChild(clusterId);
    expect(await amqpConnections()).toBeGreaterThanOrEqual(2);
    const { managementUrl } = await web.prisma.clusterNode.findFirstOrThrow({ where: { clusterId } });
    await waitFor('the cluster in the brokers health', async () =>
      (await brokersHealth()).nodes.some((entry) => entry.node === managementUrl) ? true : undefined,
    );

    const rest = createRestHandler(() => Promise.resolve(web));
    const auth = await signIn(rest, 'http://127.0.0.1');
    const removed = await callRest(rest, auth, 'DELETE', `/clusters/${clusterId}`);
    expect(removed.status).toBe(200);

    await waitFor(
      'no AMQP connection of Flotilla’s on the broker',
      async () => ((await amqpConnections()) === 0 ? true : undefined),
      WITHIN_ONE_CADENCE_MS,
    );
    await waitFor(
      'the brokers health clean of the removed cluster',
      async () => {
        const health = await brokersHealth();
        const clean =
          health.status === 'UP' &&
          !(clusterId in health.nativeConnections) &&
          !health.nodes.some((entry) => entry.node === managementUrl);
        return clean ? true : undefined;
      },
      WITHIN_ONE_CADENCE_MS,
    );
    // No component of the health report names the removed cluster any more.
    const report = JSON.stringify((await healthReport(scenario.runtimes.web)).components);
    expect(report).not.toContain(clusterId);
    expect(report).not.toContain(managementUrl);
  });
});
