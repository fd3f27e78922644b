// A small local fleet for trying Flotilla by hand: a two-node cluster and a replicated HA pair of real Artemis
// brokers (loopback only), some users and queues, steady traffic with one consumer too slow to keep up, and a
// request-reply service on the cluster (quotes.requests → quotes.replies) that answers nothing to every tenth request.
//
//   npm run fleet -- up              start in the background (data and logs under .data/fleet)
//   npm run fleet -- status [--json] the nodes' management and AMQP URLs and credentials
//   npm run fleet -- down            stop everything
//
// FLEET_DATA_DIR moves the data, logs and broker instances elsewhere (default .data/fleet), e.g. for a test.
//
// `up` starts a detached `serve` process that owns the broker JVMs (the test harness ties every JVM to its
// owning process) and runs the traffic; the state file tells `status` and `down` where it is.
import { spawn } from 'node:child_process';
import { brokerMbean, jolokiaExec } from '@test/jolokia.ts';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startCluster, startHaPair, type BrokerNode, type Topology } from '@test/artemis/index.ts';
import {
  addressFromUrl,
  openAckConsumer,
  sendMessage,
  shutdownNative,
  type NativeEndpoint,
} from '../src/modules/platform/broker/index.ts';

const FLEET_DIR = path.resolve(process.env.FLEET_DATA_DIR ?? '.data/fleet');
const STATE_FILE = path.join(FLEET_DIR, 'fleet.json');
const LOG_FILE = path.join(FLEET_DIR, 'fleet.log');
const START_TIMEOUT_MS = 5 * 60_000;
// A role per user: the harness writes one `role = user` line per extra user, so reusing `amq` would replace admin's.
const EXTRA_USERS = [
  { user: 'app', password: 'app-secret', role: 'apps' },
  { user: 'viewer', password: 'viewer-secret', role: 'viewer' },
];

/** Lets the `apps` role produce, consume and browse everywhere (admin's `amq` role keeps everything). */
function appPermissions(xml: string): string {
  return xml.replace(
    /(<permission type="(?:send|consume|browse|createNonDurableQueue|deleteNonDurableQueue|createAddress)" roles=")amq"/g,
    '$1amq,apps"',
  );
}
const QUEUES = ['orders', 'payments', 'telemetry', 'slow.jobs'];
/** A request-reply service: requests on one queue, replies on a shared reply queue, joined on the correlation id. */
const QUOTES = { requests: 'quotes.requests', replies: 'quotes.replies' };

interface NodeInfo {
  name: string;
  managementUrl: string;
  amqpUrl: string;
  user: string;
  password: string;
}

interface FleetState {
  pid: number;
  ready: boolean;
  error?: string;
  clusters: { name: string; nodes: NodeInfo[] }[];
}

function readState(): FleetState | undefined {
  if (!existsSync(STATE_FILE)) return undefined;
  return JSON.parse(readFileSync(STATE_FILE, 'utf8')) as FleetState;
}

function writeState(state: FleetState): void {
  writeFileSync(STATE_FILE, `${JSON.stringify(state, null, 2)}\n`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function runningState(): FleetState | undefined {
  const state = readState();
  return state && isAlive(state.pid) ? state : undefined;
}

function nodeInfo(node: BrokerNode): NodeInfo {
  const { name, managementUrl, amqpUrl, user, password } = node;
  return { name, managementUrl, amqpUrl, user, password };
}

function endpointOf(cluster: string, node: BrokerNode): NativeEndpoint {
  const { host, port } = addressFromUrl(node.amqpUrl);
  return {
    nodeKey: `${cluster}/${node.name}`,
    clusterKey: cluster,
    host,
    port,
    username: node.user,
    password: node.password,
  };
}

async function createQueue(node: BrokerNode, name: string): Promise<void> {
  await jolokiaExec(node, brokerMbean(node.name), 'createQueue(java.lang.String,boolean)', [
    JSON.stringify({ name, address: name, 'routing-type': 'ANYCAST', durable: true }),
    true,
  ]);
}

/** Producers on every queue of one node, fast consumers on most, and a consumer that cannot keep up. */
function startTraffic(cluster: string, node: BrokerNode, stopped: AbortSignal): void {
  const endpoint = endpointOf(cluster, node);
  for (const queue of QUEUES.filter((name) => name !== 'slow.jobs')) {
    openAckConsumer(endpoint, { source: queue, credit: 10, onMessage: (_message, settlement) => settlement.accept() });
  }
  // One message in flight, two seconds each, while two a second arrive: its backlog grows steadily.
  openAckConsumer(endpoint, {
    source: 'slow.jobs',
    credit: 1,
    onMessage: (_message, settlement) => void sleep(2_000).then(() => settlement.accept()),
  });
  let sequence = 0;
  const produce = async () => {
    while (!stopped.aborted) {
      sequence += 1;
      for (const queue of QUEUES) {
        await sendMessage(endpoint, {
          address: queue,
          body: { encoding: 'json', json: { queue, sequence, at: new Date().toISOString() } },
          applicationProperties: { sequence: { type: 'long', value: sequence } },
          durable: true,
        }).catch((error: unknown) => console.error(`send to ${queue} on ${node.name}: ${String(error)}`));
      }
      await sleep(500, undefined, { signal: stopped }).catch(() => undefined);
    }
  };
  void produce();
}

/**
 * A requester sending a quote request every second (reply_to the shared reply queue, a fresh correlation id) and a
 * responder answering each after 50–250 ms, except every tenth, which it acknowledges and drops: what the
 * Request-reply screens trace once both addresses are captured and an expectation is declared (docs/rr.md).
 */
function startRequestReply(cluster: string, node: BrokerNode, stopped: AbortSignal): void {
  const endpoint = endpointOf(cluster, node);
  let handled = 0;
  openAckConsumer(endpoint, {
    source: QUOTES.requests,
    credit: 10,
    onMessage: (message, settlement) => {
      handled += 1;
      const replyTo = message.properties.replyTo;
      const correlation = message.properties.correlationId?.value;
      if (handled % 10 === 0 || !replyTo || typeof correlation !== 'string') {
        settlement.accept();
        return;
      }
      void sleep(50 + Math.round(Math.random() * 200))
        .then(() =>
          sendMessage(endpoint, {
            address: replyTo,
            correlationId: correlation,
            body: { encoding: 'json', json: { quote: Math.round(Math.random() * 10_000) / 100 } },
          }),
        )
        .then(
          () => settlement.accept(),
          (error: unknown) => {
            console.error(`reply on ${node.name}: ${String(error)}`);
            settlement.release();
          },
        );
    },
  });
  openAckConsumer(endpoint, {
    source: QUOTES.replies,
    credit: 10,
    onMessage: (_message, settlement) => settlement.accept(),
  });
  let sequence = 0;
  const request = async () => {
    while (!stopped.aborted) {
      sequence += 1;
      await sendMessage(endpoint, {
        address: QUOTES.requests,
        replyTo: QUOTES.replies,
        correlationId: `quote-${node.name}-${String(sequence)}`,
        body: { encoding: 'json', json: { symbol: 'FLT', sequence } },
      }).catch((error: unknown) => console.error(`request on ${node.name}: ${String(error)}`));
      await sleep(1_000, undefined, { signal: stopped }).catch(() => undefined);
    }
  };
  void request();
}

async function serve(): Promise<void> {
  const topologies: Topology[] = [];
  const traffic = new AbortController();
  let isStopping = false;
  const stop = async () => {
    if (isStopping) return;
    isStopping = true;
    traffic.abort();
    await shutdownNative();
    await Promise.allSettled(topologies.map((topology) => topology.stop()));
    rmSync(STATE_FILE, { force: true });
    process.exit(0);
  };
  // `down` asks with SIGUSR2: the harness answers SIGTERM/SIGINT by killing the JVMs and re-raising the
  // signal, which would end this process before the instance folders are removed.
  process.on('SIGUSR2', () => void stop());
  process.on('exit', () => rmSync(STATE_FILE, { force: true }));
  writeState({ pid: process.pid, ready: false, clusters: [] });
  try {
    const cluster = await startCluster({ extraUsers: EXTRA_USERS, brokerXmlEdits: appPermissions });
    topologies.push(cluster);
    const pair = await startHaPair({ extraUsers: EXTRA_USERS, brokerXmlEdits: appPermissions });
    topologies.push(pair);
    const [primary] = pair.nodes as [BrokerNode, BrokerNode];
    for (const node of cluster.nodes) for (const queue of QUEUES) await createQueue(node, queue);
    for (const queue of QUEUES) await createQueue(primary, queue);
    for (const node of cluster.nodes) {
      for (const queue of Object.values(QUOTES)) await createQueue(node, queue);
      startTraffic('cluster', node, traffic.signal);
      startRequestReply('cluster', node, traffic.signal);
    }
    startTraffic('ha-pair', primary, traffic.signal);
    writeState({
      pid: process.pid,
      ready: true,
      clusters: [
        { name: 'cluster', nodes: cluster.nodes.map(nodeInfo) },
        { name: 'ha-pair', nodes: pair.nodes.map(nodeInfo) },
      ],
    });
    console.log('fleet ready');
  } catch (error) {
    writeState({ pid: process.pid, ready: false, error: String(error), clusters: [] });
    console.error(error);
    await stop();
  }
}

function printStatus(state: FleetState | undefined, asJson: boolean): void {
  const clusters = state?.ready ? state.clusters : [];
  if (asJson) {
    console.log(JSON.stringify({ clusters }, null, 2));
    return;
  }
  if (!state) {
    console.log('The fleet is not running. Start it with: npm run fleet -- up');
    return;
  }
  if (!state.ready) {
    console.log(`The fleet is starting (pid ${state.pid}); log: ${LOG_FILE}`);
    return;
  }
  for (const cluster of clusters) {
    console.log(cluster.name);
    for (const node of cluster.nodes) {
      console.log(
        `  ${node.name.padEnd(8)} management ${node.managementUrl}  amqp ${node.amqpUrl}  user ${node.user} / ${node.password}`,
      );
    }
  }
  console.log(
    `Other users on every node: ${EXTRA_USERS.map((user) => `${user.user} / ${user.password} (role ${user.role})`).join(', ')}`,
  );
  console.log(`Queues: ${QUEUES.join(', ')} (slow.jobs has a consumer that cannot keep up). Log: ${LOG_FILE}`);
  console.log(
    `Request-reply on the cluster: ${QUOTES.requests} → ${QUOTES.replies}, a request a second, every tenth unanswered (docs/rr.md).`,
  );
  printRegistrationHint(clusters);
}

/**
 * What to type in Flotilla's "Register a cluster" form for each cluster. The fleet's ports are random, so the
 * management URL Flotilla guesses for a node it discovers from the seed's topology (the seed's port on the node's
 * host) is wrong here: every other node goes in "Other nodes", one line each, as an operator would give it.
 */
function printRegistrationHint(clusters: FleetState['clusters']): void {
  console.log('To register in Flotilla (Clusters → Register a cluster, user admin / admin):');
  for (const cluster of clusters) {
    const [seed, ...others] = cluster.nodes;
    if (!seed) continue;
    console.log(`  ${cluster.name}: Management URL ${seed.managementUrl}, AMQP URL ${seed.amqpUrl}`);
    for (const node of others) console.log(`    Other nodes: ${node.managementUrl} ${node.amqpUrl}`);
  }
}

async function up(asJson: boolean): Promise<void> {
  const running = runningState();
  if (running) {
    printStatus(running, asJson);
    return;
  }
  mkdirSync(FLEET_DIR, { recursive: true });
  rmSync(STATE_FILE, { force: true });
  const log = openSync(LOG_FILE, 'a');
  // TMPDIR puts the harness's broker instances under .data/fleet instead of the system temp folder.
  const child = spawn(process.execPath, ['--import', 'tsx', process.argv[1] ?? 'scripts/fleet.ts', 'serve'], {
    detached: true,
    stdio: ['ignore', log, log],
    env: { ...process.env, TMPDIR: FLEET_DIR },
  });
  child.unref();
  const deadline = Date.now() + START_TIMEOUT_MS;
  if (!asJson) console.log(`Starting the fleet (pid ${child.pid ?? '?'}); this takes a minute…`);
  while (Date.now() < deadline) {
    await sleep(1_000);
    const state = readState();
    if (state?.ready) {
      printStatus(state, asJson);
      return;
    }
    if (state?.error || (child.pid !== undefined && !isAlive(child.pid))) {
      throw new Error(`The fleet did not start: ${state?.error ?? 'see ' + LOG_FILE}`);
    }
  }
  throw new Error(`The fleet was not ready within ${START_TIMEOUT_MS / 1000} s; see ${LOG_FILE}`);
}

async function down(): Promise<void> {
  const state = runningState();
  if (!state) {
    rmSync(STATE_FILE, { force: true });
    console.log('The fleet is not running.');
    return;
  }
  process.kill(state.pid, 'SIGUSR2');
  const deadline = Date.now() + 60_000;
  while (isAlive(state.pid) && Date.now() < deadline) await sleep(250);
  // The harness kills its JVMs when its process gets SIGTERM.
  if (isAlive(state.pid)) process.kill(state.pid, 'SIGTERM');
  rmSync(STATE_FILE, { force: true });
  console.log('The fleet is stopped.');
}

async function main(): Promise<void> {
  const [command, ...flags] = process.argv.slice(2);
  const asJson = flags.includes('--json');
  switch (command) {
    case 'up':
      return up(asJson);
    case 'down':
      return down();
    case 'status':
      printStatus(runningState(), asJson);
      return;
    case 'serve':
      return serve();
    default:
      console.error('usage: npm run fleet -- up|down|status [--json]');
      process.exitCode = 2;
  }
}

await main();
