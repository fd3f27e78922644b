// The cost of a brokerconfig plan on real brokers (issue 31): a two-node cluster, each node holding 500 queues, 50
// diverts and 200 address-setting matches (set up through the broker's own management over Jolokia, in bulk POSTs),
// and a declared document naming the same 200 address settings, 50 diverts and 500 queues. Timed as the plan is
// made (planning/plan-cluster.ts): each node read the way readNode reads it (readConfigSnapshot: the declared matches,
// '#', the service user), both nodes in parallel, then planNode per node and planHash over both. Prints the median
// and max wall time of 10 runs and the management POSTs per node per plan (ManagementClient.call counted), for the
// document equal to live (one POST: nothing to ask in force) and for one that differs (10 address settings, 5 queues
// and 5 diverts: the second POST reads the settings in force at the addresses the changed matches cover). Target:
// under 1 s, exactly two management POSTs per node.
//   npm run bench:brokerconfig        (no PostgreSQL needed)
import { startCluster, type BrokerNode } from '@test/artemis/index.ts';
import type { ConfigSnapshot } from '../src/modules/platform/broker/index.ts';
import { ManagementClient, type JolokiaRequest } from '../src/modules/platform/broker/management/management-client.ts';
import { configDocument, type ConfigDocumentInput } from '../src/modules/feature/brokerconfig/server/model/document.ts';
import { readNode, type LiveNode } from '../src/modules/feature/brokerconfig/server/live/live-nodes.ts';
import { planHash, planNode, type NodePlan } from '../src/modules/feature/brokerconfig/server/plan/index.ts';
import { reportFigure } from './report.ts';

const QUEUES = 500;
const DIVERTS = 50;
const ADDRESS_SETTINGS = 200;
const RUNS = 10;
const TARGET_MS = 1_000;
const TARGET_POSTS = 2;
/** Requests per set-up POST. */
const BULK = 100;
/** The broker's own management and notification addresses (what reservedAddressesOf gives a registered cluster). */
const SERVICE_ADDRESSES = ['activemq.management', 'activemq.notifications'];

const queueName = (index: number) => `bench.cfg.q.${String(index)}`;
const divertName = (index: number) => `bench.cfg.divert.${String(index)}`;
/** Each match covers one queue's address (`a.b.#` matches `a.b` too), so a changed one has addresses to read. */
const settingsMatch = (index: number) => `${queueName(index)}.#`;
const settingsOf = (index: number) => ({
  maxDeliveryAttempts: 5,
  redeliveryDelay: 100 + index,
  deadLetterAddress: 'bench.cfg.dla',
  autoCreateDeadLetterResources: true,
});
const DIVERT_FILTER = "kind = 'copy'";

interface Counted {
  readonly client: ManagementClient;
  posts: number;
}

/** A client whose bulk POSTs are counted (ManagementClient.call is the one way a POST leaves it). */
function countedClient(node: BrokerNode): Counted {
  const client = new ManagementClient({ url: node.managementUrl, user: node.user, password: node.password });
  const counted: Counted = { client, posts: 0 };
  const call = client.call.bind(client);
  client.call = (requests) => {
    counted.posts += 1;
    return call(requests);
  };
  return counted;
}

/** Runs the requests in bulk POSTs of BULK, refusing any that the broker refused. */
async function bulk(client: ManagementClient, requests: readonly JolokiaRequest[]): Promise<number> {
  let posts = 0;
  for (let start = 0; start < requests.length; start += BULK) {
    const results = await client.call(requests.slice(start, start + BULK));
    posts += 1;
    for (const result of results) if (!result.ok) throw new Error(`set-up refused: ${result.error.message}`);
  }
  return posts;
}

async function setUp(client: ManagementClient): Promise<number> {
  const broker = await client.brokerObjectName();
  const exec = (operation: string, args: unknown[]): JolokiaRequest => ({
    type: 'exec',
    mbean: broker,
    operation,
    arguments: args,
  });
  const queues = Array.from({ length: QUEUES }, (_, index) =>
    exec('createQueue(java.lang.String)', [
      JSON.stringify({ name: queueName(index), address: queueName(index), 'routing-type': 'ANYCAST', durable: true }),
    ]),
  );
  const diverts = Array.from({ length: DIVERTS }, (_, index) =>
    exec('createDivert(java.lang.String)', [
      JSON.stringify({
        name: divertName(index),
        address: queueName(index),
        'forwarding-address': queueName(QUEUES - 1 - index),
        exclusive: false,
        'filter-string': DIVERT_FILTER,
        'routing-type': 'STRIP',
      }),
    ]),
  );
  const settings = Array.from({ length: ADDRESS_SETTINGS }, (_, index) =>
    exec('addAddressSettings(java.lang.String,java.lang.String)', [
      settingsMatch(index),
      JSON.stringify(settingsOf(index)),
    ]),
  );
  return (await bulk(client, queues)) + (await bulk(client, diverts)) + (await bulk(client, settings));
}

/** The document equal to what was set up, or with `differing` items changed. */
function documentOf(differing: boolean) {
  const input: ConfigDocumentInput = {
    addressSettings: Array.from({ length: ADDRESS_SETTINGS }, (_, index) => ({
      match: settingsMatch(index),
      settings: { ...settingsOf(index), ...(differing && index % 20 === 0 ? { maxDeliveryAttempts: 7 } : {}) },
    })),
    diverts: Array.from({ length: DIVERTS }, (_, index) => ({
      name: divertName(index),
      address: queueName(index),
      forwardingAddress: queueName(QUEUES - 1 - index),
      filter: differing && index % 10 === 0 ? "kind = 'audit'" : DIVERT_FILTER,
    })),
    queues: Array.from({ length: QUEUES }, (_, index) => ({
      name: queueName(index),
      address: queueName(index),
      ...(differing && index % 100 === 0 ? { maxConsumers: 10 } : {}),
    })),
  };
  return configDocument.parse(input);
}

interface PlanRun {
  readonly ms: number;
  readonly postsPerNode: number[];
  readonly nodes: NodePlan[];
  readonly snapshots: ConfigSnapshot[];
  readonly hash: string;
}

/** One plan as planCluster makes it, without the database: reads in parallel, planNode per node, the hash. */
async function planOnce(
  nodes: readonly LiveNode[],
  counted: readonly Counted[],
  document: ReturnType<typeof documentOf>,
  serviceUser: string,
): Promise<PlanRun> {
  for (const entry of counted) entry.posts = 0;
  const started = performance.now();
  const reads = await Promise.all(nodes.map((node) => readNode(node, document, serviceUser)));
  const plans = reads.map((read) => {
    if (!read.snapshot) throw new Error(`${read.node.nodeName}: ${read.failure?.message ?? 'not read'}`);
    return planNode({
      document,
      snapshot: read.snapshot,
      appliedKeys: new Set(),
      node: { nodeId: read.node.nodeId, nodeName: read.node.nodeName },
      serviceAddresses: SERVICE_ADDRESSES,
      ...(read.snapshot.serviceUser ? { serviceRoles: read.snapshot.serviceUser.roles } : {}),
    });
  });
  const hash = planHash({ revision: 1, nodes: plans });
  const ms = performance.now() - started;
  return {
    ms,
    postsPerNode: counted.map((entry) => entry.posts),
    nodes: plans,
    snapshots: reads.map((read) => read.snapshot as ConfigSnapshot),
    hash,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const cluster = await startCluster({ maxHeap: '512M' });
const counted: Counted[] = [];
try {
  const brokers = cluster.nodes as [BrokerNode, BrokerNode];
  if (!brokers.every((node) => node.managementUrl.startsWith('http://127.0.0.1:')))
    throw new Error('the benchmark talks to loopback only');
  const setupStarted = performance.now();
  const setupPosts: number[] = [];
  for (const broker of brokers) {
    const entry = countedClient(broker);
    counted.push(entry);
    setupPosts.push(await setUp(entry.client));
  }
  console.log(
    `Set up on ${String(brokers.length)} nodes: ${String(QUEUES)} queues, ${String(DIVERTS)} diverts, ` +
      `${String(ADDRESS_SETTINGS)} address-setting matches each, in ${setupPosts.join(' and ')} bulk POSTs, ` +
      `${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
  );
  const nodes: LiveNode[] = brokers.map((broker, index) => ({
    nodeId: `node-${String(index + 1)}`,
    nodeName: broker.name,
    client: (counted[index] as Counted).client,
  }));
  const serviceUser = brokers[0].user;

  for (const [label, differing] of [
    ['document equal to live', false],
    ['document differing (10 address settings, 5 queues, 5 diverts)', true],
  ] as const) {
    const document = documentOf(differing);
    // Warm-up: the broker MBean names are looked up (and kept) here, not in the timed runs.
    const warm = await planOnce(nodes, counted, document, serviceUser);
    const runs: PlanRun[] = [];
    for (let run = 0; run < RUNS; run++) {
      // Apart enough that the default 20 calls/s a node never holds a run back.
      await sleep(200);
      runs.push(await planOnce(nodes, counted, document, serviceUser));
    }
    const times = runs.map((run) => run.ms).sort((a, b) => a - b);
    const median = ((times[(RUNS - 1) >> 1] ?? NaN) + (times[RUNS >> 1] ?? NaN)) / 2;
    const max = times[times.length - 1] ?? NaN;
    const posts = [...new Set(runs.map((run) => run.postsPerNode.join(', ')))];
    const steps = warm.nodes.map((node) => node.steps.length);
    const hazards = warm.nodes.map((node) => node.hazards.length);
    const hazardKinds = new Map<string, number>();
    for (const hazard of warm.nodes.flatMap((node) => node.hazards))
      hazardKinds.set(`${hazard.level} ${hazard.code}`, (hazardKinds.get(`${hazard.level} ${hazard.code}`) ?? 0) + 1);
    const inForce = warm.snapshots.map((snapshot) => snapshot.inForce.size);
    const hashes = new Set(runs.map((run) => run.hash));
    console.log(
      `\n${label}, ${String(RUNS)} runs:\n` +
        `  plan (both nodes read in parallel + planNode per node + planHash): median ${median.toFixed(0)} ms, ` +
        `max ${max.toFixed(0)} ms\n` +
        `  management POSTs per node per plan: ${posts.join(' | ')}; addresses read in force per node: ` +
        `${inForce.join(', ')}${inForce.some((size) => size > 0) ? ' (the second POST)' : ' (no second POST)'}\n` +
        `  steps per node: ${steps.join(', ')}; hazards per node: ${hazards.join(', ')}` +
        `${hazardKinds.size > 0 ? ` (${[...hazardKinds].map(([kind, count]) => `${kind} ×${String(count)}`).join(', ')})` : ''}; ` +
        `${String(hashes.size)} distinct hash over the runs`,
    );
    if (differing) {
      const postsMet = runs.every((run) => run.postsPerNode.every((count) => count === TARGET_POSTS));
      console.log(
        `  target (< ${String(TARGET_MS)} ms, exactly ${String(TARGET_POSTS)} POSTs per node): ` +
          `${max < TARGET_MS ? 'time met' : 'time MISSED'} (max), ${postsMet ? 'POSTs met' : 'POSTs MISSED'}`,
      );
      const plan = `A brokerconfig plan on 2 real nodes (${String(QUEUES)} queues, ${String(DIVERTS)} diverts, ${String(ADDRESS_SETTINGS)} address-setting matches each; the document differs in 10 settings, 5 queues, 5 diverts), both nodes read in parallel, planned and hashed, ${String(RUNS)} runs`;
      reportFigure({
        id: 'brokerconfig.plan-time',
        figure: plan,
        target: `< ${String(TARGET_MS / 1_000)} s (the max)`,
        seen: `median ${median.toFixed(0)} ms, max ${max.toFixed(0)} ms`,
        holds: max < TARGET_MS,
      });
      reportFigure({
        id: 'brokerconfig.plan-posts',
        figure: `${plan}: management POSTs per node per plan`,
        target: `exactly ${String(TARGET_POSTS)} management POSTs per node`,
        seen: `${posts.join(' | ')} POSTs per node`,
        holds: postsMet,
      });
    }
  }
} finally {
  for (const entry of counted) entry.client.close();
  await cluster.stop();
}
