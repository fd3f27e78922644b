// Which broker of a cluster's topology each given node is, by the NodeID it reports (never by URL text). The
// topology names, per NodeID, the connector of the node serving it ("primary", the live one) and of its passive
// backup; a given node that answered fills its NodeID's live slot when it is active and the backup slot when it is a
// passive backup. A given node that did not answer can still claim a slot by its AMQP URL. The slots left unclaimed
// are the only nodes discovery looks for. Pure, so the rules are unit-tested.
import { connectorKey, connectorOfUrl, parseConnector, type Connector } from './management-url-guess.ts';

export interface TopologyEntry {
  readonly nodeId: string;
  readonly primary: string;
  readonly backup: string | undefined;
}

export interface TopologySlot {
  readonly nodeId: string;
  readonly side: 'live' | 'backup';
  readonly connector: Connector;
}

export interface SlotCandidate {
  readonly amqpUrl?: string | null;
  readonly state?: { readonly nodeId: string; readonly active: boolean; readonly backup: boolean };
}

export function slotsOf(members: readonly TopologyEntry[]): TopologySlot[] {
  return members.flatMap((member) => {
    const live = parseConnector(member.primary);
    const backup = member.backup ? parseConnector(member.backup) : undefined;
    return [
      ...(live ? [{ nodeId: member.nodeId, side: 'live' as const, connector: live }] : []),
      ...(backup ? [{ nodeId: member.nodeId, side: 'backup' as const, connector: backup }] : []),
    ];
  });
}

/** The slot of a node that answered: its NodeID's backup entry when it is a passive backup, else the live entry. */
function slotOfState(slots: readonly TopologySlot[], state: NonNullable<SlotCandidate['state']>) {
  const side = state.backup && !state.active ? 'backup' : 'live';
  return slots.find((slot) => slot.nodeId === state.nodeId && slot.side === side);
}

export interface SlotMatch {
  /** Per given node, in order: the slot it fills, if any. */
  readonly given: ReadonlyArray<TopologySlot | undefined>;
  /** Slots no given node fills: members to discover. */
  readonly unclaimed: readonly TopologySlot[];
}

export function matchGivenNodes(slots: readonly TopologySlot[], given: readonly SlotCandidate[]): SlotMatch {
  const byConnector = new Map(slots.map((slot) => [connectorKey(slot.connector), slot]));
  const matched = given.map((node) => {
    if (node.state) return slotOfState(slots, node.state);
    const connector = connectorOfUrl(node.amqpUrl);
    return connector ? byConnector.get(connectorKey(connector)) : undefined;
  });
  const claimed = new Set(matched.filter((slot) => slot !== undefined));
  return { given: matched, unclaimed: slots.filter((slot) => !claimed.has(slot)) };
}

export interface GivenConflict {
  /** Indexes of the given nodes concerned, in order. */
  readonly nodes: readonly number[];
  readonly reason: 'same-broker' | 'not-in-topology';
}

/**
 * Given nodes that cannot be registered as given: two that report one NodeID in the same role (one broker given
 * twice, or a pair whose backup was never told it is one), and, when the topology lists members, one whose NodeID
 * it does not list (another cluster's broker).
 */
export function givenConflicts(
  members: readonly TopologyEntry[],
  given: ReadonlyArray<{ readonly state?: { readonly nodeId: string }; readonly role: string }>,
): GivenConflict[] {
  const conflicts: GivenConflict[] = [];
  const seen = new Map<string, number[]>();
  given.forEach((node, index) => {
    if (!node.state) return;
    const key = `${node.state.nodeId}|${node.role}`;
    seen.set(key, [...(seen.get(key) ?? []), index]);
  });
  for (const indexes of seen.values()) {
    if (indexes.length > 1) conflicts.push({ nodes: indexes, reason: 'same-broker' });
  }
  if (members.length > 0) {
    const listed = new Set(members.map((member) => member.nodeId));
    given.forEach((node, index) => {
      if (node.state && !listed.has(node.state.nodeId)) conflicts.push({ nodes: [index], reason: 'not-in-topology' });
    });
  }
  return conflicts;
}
