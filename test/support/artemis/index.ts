// Real Apache ActiveMQ Artemis brokers for tests: the pinned distribution (fetched through Maven by
// scripts/artemis-dist.ts) runs as instances made with `artemis create` in temp folders, each on free loopback
// ports. A topology is one node, two clustered live nodes, or a replicated primary/backup pair. Always call
// `topology.stop()` in afterAll; JVMs a crashed test process leaves behind are reaped at the next start.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureArtemisHome } from '../../../scripts/artemis-dist.ts';
import { findFreePort } from '../../../src/base/db/embedded-postgres.ts';
import {
  ArtemisNode,
  BrokerExitedError,
  createInstance,
  type ExtraUser,
  type ManagementTls,
  type NodeRole,
} from './broker-node.ts';
import { ownerFileName, reapOrphans, TEMP_PREFIX } from './broker-process.ts';

export interface BrokerNode {
  name: string;
  /** http(s)://127.0.0.1:<port>/console/jolokia; send the URL's origin as `Origin` (strict CORS checking). */
  managementUrl: string;
  /** amqp://127.0.0.1:<port> of the all-protocol acceptor (the only acceptor the harness keeps). */
  amqpUrl: string;
  amqpPort: number;
  managementPort: number;
  user: string;
  password: string;
  instanceDir: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  kill(): Promise<void>;
  restart(): Promise<void>;
  isRunning(): boolean;
  /** Waits until the node serves clients, e.g. a backup after its primary was killed. */
  waitUntilActive(timeoutMs?: number): Promise<void>;
}

export interface Topology {
  nodes: BrokerNode[];
  stop(): Promise<void>;
}

export interface SingleNodeOptions {
  name?: string;
  /** Edits etc/broker.xml before the first start (e.g. lower management-message-attribute-size-limit). */
  brokerXmlEdits?: (xml: string) => string;
  /** Edits etc/management.xml (the JMX/Jolokia role-based access rules) before the first start. */
  managementXmlEdits?: (xml: string) => string;
  /** Users besides admin/admin (role amq). */
  extraUsers?: readonly ExtraUser[];
  /** JVM -Xmx (default 256M: the machine has 2 cores and several brokers may run). */
  maxHeap?: string;
  /** Jolokia over https (bootstrap.xml binding with a key store, optionally demanding a client certificate). */
  managementTls?: ManagementTls;
  /**
   * Ports like `artemis create --port-offset`: node i listens on base + i × portOffset for both its AMQP and its
   * management port, so the management port follows from the AMQP port (what discovery guesses from one seed).
   */
  portOffset?: number;
}

interface PlannedNode {
  name: string;
  role: NodeRole;
  amqpPort: number;
  managementPort: number;
}

async function freePorts(count: number): Promise<number[]> {
  // Ask for all at once and keep them distinct: the finder releases each port before the next call.
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await findFreePort());
  return [...ports];
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Two base ports whose offsets are all free, for `portOffset` plans. */
async function offsetPorts(count: number, offset: number): Promise<number[]> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const [amqpBase, managementBase] = await freePorts(2);
    if (amqpBase === undefined || managementBase === undefined) continue;
    const ports = Array.from({ length: count }, (_, i) => [amqpBase + i * offset, managementBase + i * offset]).flat();
    if (ports.every((port) => port < 65_536) && new Set(ports).size === ports.length) {
      const free = await Promise.all(ports.map(isPortFree));
      if (free.every(Boolean)) return ports;
    }
  }
  throw new Error(`no free ports ${offset} apart`);
}

async function planNodes(
  specs: ReadonlyArray<{ name: string; role: NodeRole }>,
  portOffset?: number,
): Promise<PlannedNode[]> {
  const ports = portOffset ? await offsetPorts(specs.length, portOffset) : await freePorts(specs.length * 2);
  return specs.map((spec, index) => ({
    ...spec,
    amqpPort: ports[index * 2] as number,
    managementPort: ports[index * 2 + 1] as number,
  }));
}

function makeTempRoot(): string {
  reapOrphans();
  const root = mkdtempSync(path.join(os.tmpdir(), TEMP_PREFIX));
  writeFileSync(path.join(root, ownerFileName()), String(process.pid));
  return root;
}

async function launch(
  planned: PlannedNode[],
  extra: Omit<SingleNodeOptions, 'name'> & { clustered: boolean },
): Promise<{ topology: Topology; nodes: ArtemisNode[] }> {
  const home = ensureArtemisHome();
  const root = makeTempRoot();
  const nodes = planned.map(
    (plan) =>
      new ArtemisNode({
        ...plan,
        instanceDir: path.join(root, plan.name),
        staticCluster: extra.clustered
          ? planned.filter((other) => other !== plan).map((other) => `tcp://127.0.0.1:${other.amqpPort}`)
          : undefined,
        brokerXmlEdits: extra.brokerXmlEdits,
        managementXmlEdits: extra.managementXmlEdits,
        extraUsers: extra.extraUsers,
        maxHeap: extra.maxHeap,
        managementTls: extra.managementTls,
      }),
  );
  const topology: Topology = {
    nodes,
    stop: async () => {
      await Promise.all(nodes.map((node) => node.kill()));
      rmSync(root, { recursive: true, force: true });
    },
  };
  try {
    await Promise.all(nodes.map((node) => createInstance(node.spec, home)));
  } catch (error) {
    await topology.stop();
    throw error;
  }
  return { topology, nodes };
}

async function startAll(topology: Topology, starts: Array<() => Promise<void>>): Promise<Topology> {
  try {
    for (const start of starts) await start();
    return topology;
  } catch (error) {
    await topology.stop();
    throw error;
  }
}

/**
 * Ports are planned before `artemis create` runs, seconds before the JVM binds them, so a suite starting beside another
 * can lose one: a JVM that exits while starting has the topology started again, once, on fresh ports.
 */
async function onFreshPortsOnce(start: () => Promise<Topology>): Promise<Topology> {
  try {
    return await start();
  } catch (error) {
    if (!(error instanceof BrokerExitedError)) throw error;
    console.warn(`[artemis] ${error.message}\n[artemis] starting the topology again on fresh ports`);
    return start();
  }
}

/** One standalone broker (admin/admin, role amq). */
export async function startSingleNode(options: SingleNodeOptions = {}): Promise<Topology> {
  return onFreshPortsOnce(async () => {
    const planned = await planNodes([{ name: options.name ?? 'node1', role: 'live' }]);
    const { topology, nodes } = await launch(planned, { ...options, clustered: false });
    return startAll(
      topology,
      nodes.map((node) => () => node.start()),
    );
  });
}

/** Live nodes clustered with static connectors to each other (default two). */
export async function startCluster(
  options: { size?: number } & Omit<SingleNodeOptions, 'name'> = {},
): Promise<Topology> {
  return onFreshPortsOnce(async () => {
    const size = options.size ?? 2;
    const planned = await planNodes(
      Array.from({ length: size }, (_, i) => ({ name: `live${i + 1}`, role: 'live' as const })),
      options.portOffset,
    );
    const { topology, nodes } = await launch(planned, { ...options, clustered: true });
    // Started together: each node's cluster bridge retries until its partners are up.
    return startAll(topology, [() => Promise.all(nodes.map((node) => node.start())).then(() => undefined)]);
  });
}

/** A replicated pair: nodes[0] the primary (active), nodes[1] the backup (passive, in sync when this resolves). */
export async function startHaPair(options: Omit<SingleNodeOptions, 'name'> = {}): Promise<Topology> {
  return onFreshPortsOnce(async () => {
    const planned = await planNodes(
      [
        { name: 'primary', role: 'ha-primary' },
        { name: 'backup', role: 'ha-backup' },
      ],
      options.portOffset,
    );
    const { topology, nodes } = await launch(planned, { ...options, clustered: true });
    const [primary, backup] = nodes as [ArtemisNode, ArtemisNode];
    return startAll(topology, [
      () => primary.start(),
      () => primary.waitUntilActive(),
      () => backup.start(),
      () => backup.waitUntilReplicaInSync(),
    ]);
  });
}
