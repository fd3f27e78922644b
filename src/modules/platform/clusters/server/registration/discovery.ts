// Every node of a cluster from one seed: the seed's network topology names each primary and backup connector,
// each connector becomes a management URL (a given node whose AMQP URL matches overrides the guess), every node's
// state is read, and nodes sharing a NodeID form one logical node (primary and backup).
import type { RegistrationProbeNode } from '../../../../kernel/plugin/descriptor.ts';
import {
  listNetworkTopology,
  readBrokerState,
  type BrokerState,
} from '../../../broker/management/broker-operations.ts';
import type { ManagementClient } from '../../../broker/management/management-client.ts';
import { ManagementError } from '../../../broker/management/management-error.ts';
import {
  amqpUrlOf,
  connectorKey,
  connectorOfUrl,
  guessManagementUrl,
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

async function probeNode(clientFor: ClientFor, node: GivenNode, discovered: boolean): Promise<RegistrationProbeNode> {
  const base = { managementUrl: node.managementUrl, amqpUrl: node.amqpUrl ?? null, discovered };
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
  const nodes: RegistrationProbeNode[] = [seed, ...probedOthers];
  if (!seed.state) return { nodes, topologySize: 0 };

  let members: Awaited<ReturnType<typeof listNetworkTopology>>;
  try {
    members = await listNetworkTopology(clientFor(seedGiven.managementUrl));
  } catch (error) {
    return { nodes, topologySize: 0, topologyError: errorOf(error, seedGiven.managementUrl).message };
  }
  const ownConnector = seedConnector(members, seed.state, seedGiven);
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
  const found = await Promise.all(
    unique.map((connector) =>
      probeNode(
        clientFor,
        {
          // Without the seed's own connector, no offset can be known: other hosts keep the seed's port.
          managementUrl: guessManagementUrl(
            { managementUrl: seedGiven.managementUrl, connector: ownConnector ?? connector },
            connector,
          ),
          amqpUrl: amqpUrlOf(connector, seedGiven.amqpUrl),
        },
        true,
      ),
    ),
  );
  // The seed's AMQP URL, when not given, is its own connector.
  const seedWithAmqp =
    seed.amqpUrl === null && ownConnector ? { ...seed, amqpUrl: amqpUrlOf(ownConnector, null) } : seed;
  const all = [seedWithAmqp, ...probedOthers, ...found];
  const byUrl = new Map(all.map((node) => [node.managementUrl, node]));
  return { nodes: [...byUrl.values()], topologySize: members.length };
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
