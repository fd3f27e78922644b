// Every node of a cluster from the nodes given: each given node is matched to its topology member by the NodeID it
// reports (topology-slots.ts), and takes its AMQP URL from that member's connector or its own acceptors when none
// was given. Only members that no given node is are searched for: candidate management URLs are tried in turn and
// one is taken only when the broker answering there reports the member's NodeID (a guess that reaches another
// broker, or nothing, is never recorded as the node). Each node says how its URL was found. Nodes sharing a NodeID
// form one logical node (primary and backup).
import type { RegistrationProbeNode } from './registration-check.ts';
import {
  type BrokerState,
  listNetworkTopology,
  type ManagementClient,
  ManagementError,
  readAmqpAcceptors,
  readBrokerState,
} from '@/modules/platform/broker/index.ts';
import { amqpUrlOf, managementUrlCandidates, type Connector } from './management-url-guess.ts';
import {
  givenConflicts,
  matchGivenNodes,
  slotsOf,
  type GivenConflict,
  type TopologyEntry,
  type TopologySlot,
} from './topology-slots.ts';

export interface GivenNode {
  readonly managementUrl: string;
  readonly amqpUrl?: string | null;
}

export type ClientFor = (managementUrl: string) => ManagementClient;

export interface Discovery {
  readonly nodes: RegistrationProbeNode[];
  /** Topology members (by NodeID) as the seed reported them; empty for a broker without a cluster connection. */
  readonly topologySize: number;
  /** Why the topology could not be read, when it could not. */
  readonly topologyError?: string;
  /** Given nodes that cannot be registered as given: their management URLs and a sentence that names them. */
  readonly conflicts: readonly { readonly managementUrls: readonly string[]; readonly message: string }[];
}

/** PRIMARY or BACKUP from the configured HA policy, which (unlike Backup) does not change on failover. */
export function roleOf(state: Pick<BrokerState, 'haPolicy' | 'backup'>): 'PRIMARY' | 'BACKUP' {
  if (state.haPolicy) return /backup/i.test(state.haPolicy) ? 'BACKUP' : 'PRIMARY';
  return state.backup ? 'BACKUP' : 'PRIMARY';
}

function errorOf(error: unknown, url: string): NonNullable<RegistrationProbeNode['error']> {
  const failure =
    error instanceof ManagementError
      ? error
      : new ManagementError('broker-error', String(error), url, { cause: error });
  const problem = failure.toProblem();
  return { kind: problem.kind, message: problem.message, advice: problem.advice, snippet: problem.configSnippet };
}

const GIVEN = { method: 'given', detail: 'given at registration' } as const;

async function probeNode(
  clientFor: ClientFor,
  node: GivenNode,
  discovered: boolean,
  urlSource: RegistrationProbeNode['urlSource'] = GIVEN,
): Promise<RegistrationProbeNode> {
  const base = { managementUrl: node.managementUrl, amqpUrl: node.amqpUrl ?? null, discovered, urlSource };
  try {
    const { name, version, nodeId, active, backup, haPolicy } = await readBrokerState(clientFor(node.managementUrl));
    const state = { name, version, nodeId, active, backup, haPolicy };
    return { ...base, role: roleOf(state), state };
  } catch (error) {
    return { ...base, role: 'UNKNOWN', error: errorOf(error, node.managementUrl) };
  }
}

/** Connectors of the topology's members, each with its NodeID and side (live or backup). */
async function readSlots(
  clientFor: ClientFor,
  managementUrl: string,
): Promise<{ members: TopologyEntry[]; slots: TopologySlot[] } | { error: string }> {
  try {
    const members = await listNetworkTopology(clientFor(managementUrl));
    return { members, slots: slotsOf(members) };
  } catch (error) {
    return { error: errorOf(error, managementUrl).message };
  }
}

/**
 * The seed is the first given node; the others are probed beside it. Every given node that answered is matched to
 * its topology member by the NodeID it reports; a given node without an AMQP URL takes its member's connector (when
 * the node accepts AMQP there) or its own AMQP acceptor. Only members no given node is are searched for.
 */
export async function discoverNodes(clientFor: ClientFor, given: readonly GivenNode[]): Promise<Discovery> {
  if (given.length === 0) return { nodes: [], topologySize: 0, conflicts: [] };
  const probed = await Promise.all(given.map((node) => probeNode(clientFor, node, false)));
  const reporter = probed.find((node) => node.state);
  if (!reporter) return { nodes: probed, topologySize: 0, conflicts: [] };
  const topology = await readSlots(clientFor, reporter.managementUrl);
  const members = 'members' in topology ? topology.members : [];
  const slots = 'slots' in topology ? topology.slots : [];
  const match = matchGivenNodes(slots, probed);
  const scheme = given.find((node) => node.amqpUrl)?.amqpUrl ?? null;
  const givenNodes = await Promise.all(
    probed.map((node, index) => withAmqpUrl(clientFor, node, match.given[index], scheme)),
  );
  const conflicts = givenConflicts(members, givenNodes).map((conflict) => describeConflict(conflict, givenNodes));
  const base = {
    topologySize: members.length,
    conflicts,
    ...('error' in topology ? { topologyError: topology.error } : {}),
  };
  // Discovery guesses URLs from a given node whose connector is known: its management port and connector port.
  const patternIndex = givenNodes.findIndex((node, index) => node.state && match.given[index]);
  const pattern = givenNodes[patternIndex];
  const patternSlot = match.given[patternIndex];
  if (!pattern || !patternSlot || match.unclaimed.length === 0) return { nodes: givenNodes, ...base };
  const found = await Promise.all(
    match.unclaimed.map((slot) =>
      findNode(clientFor, {
        connector: slot.connector,
        nodeId: slot.nodeId,
        seed: { managementUrl: pattern.managementUrl, connector: patternSlot.connector },
        amqpUrl: amqpUrlOf(slot.connector, pattern.amqpUrl),
      }),
    ),
  );
  const taken = new Set(givenNodes.map((node) => node.managementUrl));
  return { nodes: [...givenNodes, ...found.filter((node) => !taken.has(node.managementUrl))], ...base };
}

function describeConflict(conflict: GivenConflict, nodes: readonly RegistrationProbeNode[]) {
  const managementUrls = conflict.nodes.map((index) => nodes[index]?.managementUrl ?? '?');
  const nodeId = nodes[conflict.nodes[0] ?? 0]?.state?.nodeId ?? '?';
  const message =
    conflict.reason === 'same-broker'
      ? `${managementUrls.join(' and ')} report the same NodeID ${nodeId} in the same role: one broker given twice (or a backup not configured as one). Give each broker once.`
      : `${managementUrls[0] ?? '?'} reports NodeID ${nodeId}, which the cluster's topology does not list: it is another cluster's broker (or not yet joined). Register it with its own cluster.`;
  return { managementUrls, message };
}

const WILDCARD_HOSTS = new Set(['', '0.0.0.0', '::', '[::]', 'localhost']);

/**
 * A node given without its AMQP URL takes its topology connector when one of its own AMQP acceptors listens on
 * that port (what the cluster itself dials), else its own AMQP acceptor (a wildcard bind host replaced by the
 * management URL's host), so a node with or without a cluster connection can be subscribed to.
 */
async function withAmqpUrl(
  clientFor: ClientFor,
  node: RegistrationProbeNode,
  slot: TopologySlot | undefined,
  scheme: string | null,
): Promise<RegistrationProbeNode> {
  if (node.amqpUrl !== null || !node.state) return node;
  let acceptors: Awaited<ReturnType<typeof readAmqpAcceptors>> = [];
  try {
    acceptors = await readAmqpAcceptors(clientFor(node.managementUrl));
  } catch {
    // the topology's connector may still tell
  }
  const onConnector = slot ? acceptors.find((acceptor) => acceptor.port === slot.connector.port) : undefined;
  if (slot && (onConnector || acceptors.length === 0)) {
    return { ...node, amqpUrl: amqpUrlOf(slot.connector, onConnector?.tls ? 'amqps:' : scheme) };
  }
  const acceptor = acceptors[0];
  if (!acceptor) return node;
  const host = WILDCARD_HOSTS.has(acceptor.host) ? new URL(node.managementUrl).hostname : acceptor.host;
  return {
    ...node,
    amqpUrl: amqpUrlOf({ host: host.replace(/^\[|\]$/g, ''), port: acceptor.port }, acceptor.tls ? 'amqps:' : null),
  };
}

const METHOD_WORDS = {
  'seed-port': "the seed's management port on the node's host",
  'seed-offset': "the seed's port offset between connector and management port",
} as const;

/**
 * Tries each candidate URL of a topology member in turn and takes the first whose broker reports the member's
 * NodeID. When none does, the node is kept under its first candidate with an error that lists what was tried and
 * asks for its URL, so a wrong guess never passes for the node.
 */
async function findNode(
  clientFor: ClientFor,
  member: {
    connector: Connector;
    nodeId: string;
    seed: { managementUrl: string; connector: Connector };
    amqpUrl: string;
  },
): Promise<RegistrationProbeNode> {
  const connectorText = `${member.connector.host}:${member.connector.port}`;
  const candidates = managementUrlCandidates(member.seed, member.connector);
  const tried: string[] = [];
  let firstFailure: RegistrationProbeNode | undefined;
  for (const candidate of candidates) {
    const urlSource = {
      method: candidate.method,
      detail: `connector ${connectorText} in the seed's topology; ${METHOD_WORDS[candidate.method]}; confirmed by the broker's NodeID`,
    };
    const probed = await probeNode(
      clientFor,
      { managementUrl: candidate.url, amqpUrl: member.amqpUrl },
      true,
      urlSource,
    );
    if (probed.state && probed.state.nodeId === member.nodeId) return probed;
    tried.push(
      `${candidate.url} (${probed.state ? `answered as ${probed.state.name}, another node` : (probed.error?.kind ?? 'no answer')})`,
    );
    // A refused sign-in is kept as the node's error: the authentication check must see it.
    firstFailure ??= probed;
  }
  const detail = `connector ${connectorText} in the seed's topology; no management URL answered as this node (tried ${tried.join(', ') || 'nothing: no candidate port'})`;
  const advice = "Give this node's management URL (and its AMQP URL) at registration.";
  return {
    managementUrl: candidates[0]?.url ?? member.seed.managementUrl,
    amqpUrl: member.amqpUrl,
    discovered: true,
    role: 'UNKNOWN',
    urlSource: { method: 'not-confirmed', detail },
    error:
      firstFailure?.error && !firstFailure.state
        ? { ...firstFailure.error, advice: `${firstFailure.error.advice} ${advice}` }
        : { kind: 'not-found', message: detail, advice },
  };
}

export interface LogicalNode {
  /** The NodeID the pair shares; null for a node that never answered. */
  readonly nodeId: string | null;
  readonly members: readonly RegistrationProbeNode[];
}

/** Nodes grouped by NodeID: a primary and its backup become one logical node; unanswered nodes stand alone. */
export function logicalNodes(nodes: readonly RegistrationProbeNode[]): LogicalNode[] {
  const groups = new Map<string, RegistrationProbeNode[]>();
  const alone: LogicalNode[] = [];
  for (const node of nodes) {
    const nodeId = node.state?.nodeId;
    if (!nodeId) {
      alone.push({ nodeId: null, members: [node] });
      continue;
    }
    groups.set(nodeId, [...(groups.get(nodeId) ?? []), node]);
  }
  const paired = [...groups].map(([nodeId, members]) => ({
    nodeId,
    members: [...members].sort((a, b) => (a.role === b.role ? 0 : a.role === 'PRIMARY' ? -1 : 1)),
  }));
  return [...paired, ...alone];
}
