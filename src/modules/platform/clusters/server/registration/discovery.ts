// Every node of a cluster from one seed: the seed's network topology names each primary and backup connector with
// its NodeID; a given node whose AMQP URL matches a connector is that node; for the others, candidate management
// URLs are tried in turn and one is taken only when the broker answering there reports the member's NodeID (a
// guess that reaches another broker, or nothing, is never recorded as the node). Each node says how its URL was
// found. Nodes sharing a NodeID form one logical node (primary and backup).
import type { RegistrationProbeNode } from './registration-check.ts';
import {
  type BrokerState,
  listNetworkTopology,
  type ManagementClient,
  ManagementError,
  readAmqpAcceptor,
  readBrokerState,
} from '@/modules/platform/broker/index.ts';
import {
  amqpUrlOf,
  connectorKey,
  connectorOfUrl,
  managementUrlCandidates,
  parseConnector,
  type Connector,
} from './management-url-guess.ts';

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

/** The seed's own connector: its NodeID's primary entry, or the backup entry when the seed is a passive backup. */
function seedConnector(
  members: Awaited<ReturnType<typeof listNetworkTopology>>,
  state: NonNullable<RegistrationProbeNode['state']>,
  given: GivenNode,
): Connector | undefined {
  const member = members.find((candidate) => candidate.nodeId === state.nodeId);
  const text = state.backup && !state.active ? member?.backup : member?.primary;
  return (text ? parseConnector(text) : undefined) ?? connectorOfUrl(given.amqpUrl);
}

export async function discoverNodes(clientFor: ClientFor, given: readonly GivenNode[]): Promise<Discovery> {
  const [seedGiven, ...others] = given;
  if (!seedGiven) return { nodes: [], topologySize: 0 };
  const seed = await probeNode(clientFor, seedGiven, false);
  const probedOthers = await Promise.all(others.map((node) => probeNode(clientFor, node, false)));
  if (!seed.state) return { nodes: [seed, ...probedOthers], topologySize: 0 };
  const seedWithOwnAmqp = await withOwnAmqpUrl(clientFor, seed);
  const nodes: RegistrationProbeNode[] = [seedWithOwnAmqp, ...probedOthers];

  let members: Awaited<ReturnType<typeof listNetworkTopology>>;
  try {
    members = await listNetworkTopology(clientFor(seedGiven.managementUrl));
  } catch (error) {
    return { nodes, topologySize: 0, topologyError: errorOf(error, seedGiven.managementUrl).message };
  }
  if (members.length === 0) return { nodes, topologySize: 0 };
  // Without its own entry in the topology, the seed's connector is its given AMQP URL or its own AMQP acceptor.
  const ownConnector = seedConnector(members, seed.state, { ...seedGiven, amqpUrl: seedWithOwnAmqp.amqpUrl });
  // Connectors already accounted for: the seed's own and every given node's AMQP URL.
  const known = new Map<string, RegistrationProbeNode>();
  if (ownConnector) known.set(connectorKey(ownConnector), seed);
  for (const node of probedOthers) {
    const connector = connectorOfUrl(node.amqpUrl);
    if (connector) known.set(connectorKey(connector), node);
  }
  const targets = members
    .flatMap((member) => [member.primary, member.backup])
    .map((text) => (text ? parseConnector(text) : undefined))
    .filter((connector): connector is Connector => connector !== undefined)
    .filter((connector) => !known.has(connectorKey(connector)));
  const unique = [...new Map(targets.map((connector) => [connectorKey(connector), connector])).values()];
  const nodeIds = new Map(
    members.flatMap((member) =>
      [member.primary, member.backup].flatMap((text) => {
        const connector = text ? parseConnector(text) : undefined;
        return connector ? [[connectorKey(connector), member.nodeId] as const] : [];
      }),
    ),
  );
  const found = await Promise.all(
    unique.map((connector) =>
      findNode(clientFor, {
        connector,
        nodeId: nodeIds.get(connectorKey(connector)) ?? '',
        // Without the seed's own connector no offset can be known: treat the target as the seed's own pattern.
        seed: { managementUrl: seedGiven.managementUrl, connector: ownConnector ?? connector },
        amqpUrl: amqpUrlOf(connector, seedGiven.amqpUrl),
      }),
    ),
  );
  // The seed's AMQP URL, when not given, is its own connector.
  const seedWithAmqp =
    seed.amqpUrl === null && ownConnector
      ? { ...seedWithOwnAmqp, amqpUrl: amqpUrlOf(ownConnector, seedWithOwnAmqp.amqpUrl) }
      : seedWithOwnAmqp;
  const all = [seedWithAmqp, ...probedOthers, ...found];
  const byUrl = new Map(all.map((node) => [node.managementUrl, node]));
  return { nodes: [...byUrl.values()], topologySize: members.length };
}

const WILDCARD_HOSTS = new Set(['', '0.0.0.0', '::', '[::]', 'localhost']);

/**
 * A seed given without its AMQP URL takes it from its own AMQP acceptor (what the broker reports), so a node without
 * a cluster connection can still be subscribed to. A wildcard bind host is replaced by the management URL's host.
 */
async function withOwnAmqpUrl(clientFor: ClientFor, seed: RegistrationProbeNode): Promise<RegistrationProbeNode> {
  if (seed.amqpUrl !== null) return seed;
  try {
    const acceptor = await readAmqpAcceptor(clientFor(seed.managementUrl));
    if (!acceptor) return seed;
    const host = WILDCARD_HOSTS.has(acceptor.host) ? new URL(seed.managementUrl).hostname : acceptor.host;
    return {
      ...seed,
      amqpUrl: amqpUrlOf({ host: host.replace(/^\[|\]$/g, ''), port: acceptor.port }, acceptor.tls ? 'amqps:' : null),
    };
  } catch {
    return seed; // the topology's connector may still tell
  }
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
