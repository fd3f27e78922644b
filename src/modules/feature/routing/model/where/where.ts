// "Where would this message go?", answered per node from its routing configuration with the broker's own rules
// (artemis-server PostOfficeImpl.route, BindingsImpl.route, DivertImpl.route, LocalQueueBinding,
// ServerSessionImpl.checkAutoCreate; read in apache/activemq-artemis):
// - Exclusive diverts on the address whose filter matches take the message, all of them; the address's queues and
//   non-exclusive diverts then get nothing.
// - Otherwise every matching non-exclusive divert forwards a copy (routing type STRIP/PASS/ANYCAST/MULTICAST applied,
//   then routed afresh at the forwarding address), and the queues bound to the address (or to a wildcard address that
//   matches it) are grouped by routing name: a multicast queue alone, the address's anycast queues together. Each group
//   gives the message to one of its queues whose filter matches (round-robin), if that queue's routing type fits the
//   message's (a message without one fits every queue).
// - No queue took it: with send-to-dla-on-no-route it goes to the dead-letter address (routing type cleared), else it
//   is dropped (Artemis 2.44: the dead-letter rule applies only to an address without any binding). With no queue
//   bound at all, an anycast send has a queue auto-created (auto-create-queues) or is refused.
// What the configuration cannot tell (transformers, values assigned on send, other nodes, bridges' far side) is said in
// `unknowns`.
import { matchesAddress } from '../address-pattern.ts';
import { edgeId, itemId } from '../routing-graph.ts';
import type {
  QueueRoutingType,
  RoutingAddress,
  RoutingDivert,
  RoutingNodeView,
  RoutingQueue,
} from '../routing-view.ts';
import { clusterUnknowns } from './cluster-notes.ts';
import { judgeFilter } from './filter-verdict.ts';
import { summarise } from './where-summary.ts';
import type {
  ProbeMessage,
  WhereAnswer,
  WhereDivert,
  WhereNodeAnswer,
  WhereNote,
  WhereOutcome,
  WhereQueue,
} from './where-types.ts';

export type * from './where-types.ts';

/** Diverts forwarding to diverts: how deep the walk goes before calling it a loop. */
const MAX_HOPS = 16;

interface Hop {
  /** The routing type the message has at this address; null: none (every queue fits). */
  readonly routingType: QueueRoutingType | null;
  readonly via: WhereQueue['via'];
  /** A divert upstream whose transformer may have changed the message. */
  readonly transformedBy: string | null;
  /** Addresses already travelled. */
  readonly trail: readonly string[];
  /** Already routed to a dead-letter address: no second one (PostOfficeImpl.maybeSendToDLA). */
  readonly deadLettered: boolean;
  /** The queue named by a fully qualified `address::queue`: only it may receive. */
  readonly onlyQueue: string | null;
}

const address = (name: string) => itemId('address', name);
const QUEUE_GROUP = (queue: RoutingQueue) =>
  queue.routingType === 'ANYCAST' ? `anycast:${queue.address}` : `multicast:${queue.name}`;

class NodeWalk {
  readonly received = new Map<string, WhereQueue>();
  readonly path = new Set<string>();
  readonly items = new Set<string>();
  readonly diverted: WhereDivert[] = [];
  readonly notes: WhereNote[] = [];
  readonly unknowns: WhereNote[] = [];
  private outcome: WhereOutcome | null = null;

  constructor(
    readonly view: RoutingNodeView,
    readonly message: ProbeMessage,
  ) {}

  answer(): WhereNodeAnswer {
    const receivingQueues = [...this.received.values()];
    const routed = receivingQueues.some((queue) => queue.via !== 'dead-letter');
    const deadLettered = receivingQueues.length > 0 ? 'dead-lettered' : 'dropped';
    const outcome = routed ? 'routed' : (this.outcome ?? deadLettered);
    return {
      nodeId: this.view.nodeId,
      nodeName: this.view.nodeName,
      outcome,
      receivingQueues,
      path: [...this.path],
      items: [...this.items],
      diverted: this.diverted,
      notes: dedupe(this.notes),
      unknowns: dedupe(this.unknowns),
    };
  }

  /** Routes at `name`; answers whether a queue there took it. */
  route(name: string, hop: Hop): boolean {
    if (hop.trail.includes(name) || hop.trail.length >= MAX_HOPS) {
      this.notes.push({
        kind: 'loop',
        text: `Diverts lead back to ${name} (${[...hop.trail, name].join(' → ')}): the broker would divert it again; followed no further here.`,
        itemId: address(name),
      });
      return false;
    }
    this.items.add(address(name));
    const info = this.view.addresses.find((entry) => entry.name === name);
    const diverts = this.view.diverts.filter((divert) => matchesAddress(divert.address, name));
    const queues = this.view.queues.filter((queue) => matchesAddress(queue.address, name));
    const next: Hop = { ...hop, trail: [...hop.trail, name] };

    if (!info && queues.length === 0 && diverts.length === 0) {
      this.settle(name, 'address-missing');
      this.unknowns.push({
        kind: 'address-missing',
        text: hop.routingType
          ? `${name} does not exist on ${this.view.nodeName}: the broker creates it if its address settings allow auto-create-addresses (and, for ANYCAST, auto-create-queues), else refuses the send.`
          : `${name} does not exist on ${this.view.nodeName}: a message without a routing type is not routed anywhere (unless the address settings for it send unrouted messages to a dead-letter address).`,
        itemId: address(name),
      });
      return false;
    }
    const created = queues.length === 0 ? this.autoCreate(name, info, hop) : 'not-needed';
    if (created === 'refused') return false;

    const exclusive = diverts.filter((divert) => divert.exclusive && this.divertMatches(divert, name, hop));
    if (exclusive.length > 0) {
      this.notes.push({
        kind: 'exclusive-divert',
        text: `At ${name}, exclusive divert${exclusive.length > 1 ? 's' : ''} ${exclusive.map((d) => d.name).join(', ')} take${exclusive.length > 1 ? '' : 's'} the message: the address's queues and other diverts get nothing.`,
        itemId: itemId('divert', exclusive[0]?.name ?? ''),
      });
      for (const divert of exclusive) this.divert(divert, name, next);
      this.noRoute(name, info, hop, true, true);
      return false;
    }
    for (const divert of diverts)
      if (!divert.exclusive && this.divertMatches(divert, name, hop)) this.divert(divert, name, next);

    const groups = new Map<string, RoutingQueue[]>();
    for (const queue of queues) groups.set(QUEUE_GROUP(queue), [...(groups.get(QUEUE_GROUP(queue)) ?? []), queue]);
    // A queue auto-created for the message takes it (it is no queue Flotilla can show).
    let taken = created === 'created';
    for (const [group, members] of groups) taken = this.deliverToGroup(name, group, members, hop) || taken;
    if (!taken) this.noRoute(name, info, hop, queues.length > 0 || diverts.length > 0, false);
    return taken;
  }

  private divertMatches(divert: RoutingDivert, at: string, hop: Hop): boolean {
    const subject = { itemId: itemId('divert', divert.name), label: `divert ${divert.name}`, filter: divert.filter };
    const verdict = judgeFilter(subject, this.message, at, hop.transformedBy);
    this.notes.push(...verdict.notes);
    this.unknowns.push(...verdict.unknowns);
    return verdict.matches;
  }

  private divert(divert: RoutingDivert, at: string, hop: Hop): void {
    const divertId = itemId('divert', divert.name);
    this.items.add(divertId);
    this.path.add(edgeId('diverts', address(divert.address), divertId));
    if (divert.address !== at) this.items.add(address(divert.address));
    const routingType =
      divert.routingType === 'STRIP' ? null : divert.routingType === 'PASS' ? hop.routingType : divert.routingType;
    if (divert.transformerClassName)
      this.unknowns.push({
        kind: 'transformer',
        text: `Divert ${divert.name} runs transformer ${divert.transformerClassName}: what it changes (properties, address) is not known here; filters after it are judged on the message before it.`,
        itemId: divertId,
      });
    // A divert may name several forwarding addresses, comma-separated (DivertImpl.forwardAddresses).
    for (const target of divert.forwardingAddress.split(',').map((part) => part.trim())) {
      if (target === '') continue;
      this.diverted.push({
        itemId: divertId,
        name: divert.name,
        address: at,
        forwardingAddress: target,
        exclusive: divert.exclusive,
        routingType: divert.routingType,
        transformerClassName: divert.transformerClassName,
      });
      if (!divert.exclusive)
        this.notes.push({
          kind: 'divert',
          text: `Divert ${divert.name} copies it from ${at} to ${target}${routingType ? ` as ${routingType}` : ' without a routing type'}.`,
          itemId: divertId,
        });
      this.path.add(edgeId('forwards', divertId, address(target)));
      this.route(target, {
        ...hop,
        routingType,
        via: 'divert',
        transformedBy: divert.transformerClassName ? divert.name : hop.transformedBy,
        deadLettered: false,
        onlyQueue: null,
      });
    }
  }

  /** One routing-name group: the next queue whose filter matches gets it, if its routing type fits. */
  private deliverToGroup(at: string, group: string, members: readonly RoutingQueue[], hop: Hop): boolean {
    const candidates: Array<{ queue: RoutingQueue; certain: boolean }> = [];
    for (const queue of members) {
      if (hop.onlyQueue !== null && queue.name !== hop.onlyQueue) continue;
      const subject = { itemId: itemId('queue', queue.name), label: `queue ${queue.name}`, filter: queue.filter };
      const verdict = judgeFilter(subject, this.message, at, hop.transformedBy);
      this.notes.push(...verdict.notes);
      this.unknowns.push(...verdict.unknowns);
      if (verdict.matches || !verdict.certain) candidates.push({ queue, certain: verdict.matches && verdict.certain });
    }
    const first = candidates[0]?.queue;
    if (!first) return false;
    if (hop.routingType !== null && first.routingType !== hop.routingType) {
      this.notes.push({
        kind: 'routing-type',
        text: `${candidates.map((c) => c.queue.name).join(', ')} on ${first.address} ${candidates.length > 1 ? 'are' : 'is'} ${first.routingType}: a ${hop.routingType} message does not reach ${candidates.length > 1 ? 'them' : 'it'}.`,
        itemId: itemId('queue', first.name),
      });
      return false;
    }
    if (candidates.length > 1)
      this.notes.push({
        kind: 'round-robin',
        text: `${candidates.map((c) => c.queue.name).join(', ')} are anycast queues of ${first.address}: each message goes to one of them, in turn.`,
        itemId: itemId('queue', first.name),
      });
    for (const { queue, certain } of candidates) this.receive(queue, at, group, candidates.length > 1, certain, hop);
    return true;
  }

  private receive(queue: RoutingQueue, at: string, group: string, shared: boolean, certain: boolean, hop: Hop): void {
    const queueId = itemId('queue', queue.name);
    this.items.add(queueId);
    this.items.add(address(queue.address));
    this.path.add(edgeId('binds', address(queue.address), queueId));
    if (!this.received.has(queue.name))
      this.received.set(queue.name, {
        itemId: queueId,
        name: queue.name,
        address: queue.address,
        routingType: queue.routingType,
        via: hop.via,
        share: shared ? 'one-of' : 'every',
        group: `${this.view.nodeId}/${group}`,
        certain,
      });
    if (queue.address !== at)
      this.notes.push({
        kind: 'filter',
        text: `Queue ${queue.name} is bound to the wildcard address ${queue.address}, which matches ${at}.`,
        itemId: queueId,
      });
    for (const bridge of this.view.bridges.filter((candidate) => candidate.queueName === queue.name)) {
      const bridgeId = itemId('bridge', bridge.name);
      this.items.add(bridgeId);
      this.path.add(edgeId('bridges', queueId, bridgeId));
      const target = bridge.forwardingAddress ?? queue.address;
      this.path.add(edgeId('forwards', bridgeId, address(target)));
      const remote = bridge.staticConnectors.join(', ') || bridge.discoveryGroupName || 'its target';
      this.unknowns.push({
        kind: 'bridge',
        text: `Bridge ${bridge.name} consumes ${queue.name} and forwards to ${target} on ${remote}${bridge.filter ? ` (filter ${bridge.filter})` : ''}${bridge.started === false ? ', but is stopped' : ''}: beyond what Flotilla can see from this cluster.`,
        itemId: bridgeId,
      });
    }
  }

  /**
   * No local queue is bound (ServerSessionImpl.checkAutoCreate, on a send and on a divert's copy alike): an anycast
   * message has a queue named after the address created, or is refused.
   */
  private autoCreate(name: string, info: RoutingAddress | undefined, hop: Hop): 'created' | 'refused' | 'not-needed' {
    if (hop.routingType !== 'ANYCAST' || !info) return 'not-needed';
    if (info.autoCreateQueues === true) {
      this.settle(name, 'auto-created');
      this.unknowns.push({
        kind: 'auto-create',
        text: `${name} has no queue: the broker auto-creates an anycast queue ${name} (auto-create-queues), which gets the message unless an exclusive divert takes it; Flotilla cannot show a queue that does not exist yet.`,
        itemId: address(name),
      });
      return 'created';
    }
    if (info.autoCreateQueues === false) {
      this.notes.push({
        kind: 'auto-create',
        text: `${name} has no queue and auto-create-queues is off: the broker refuses an ANYCAST send there.`,
        itemId: address(name),
      });
      this.settle(name, 'refused');
      return 'refused';
    }
    this.unknowns.push({
      kind: 'auto-create',
      text: `${name} has no queue and its auto-create-queues setting is not known: the broker either auto-creates an anycast queue ${name} for it or refuses the send.`,
      itemId: address(name),
    });
    return 'not-needed';
  }

  /**
   * No queue took it at `name` (PostOfficeImpl.route and maybeSendToDLA, Artemis 2.44): send-to-dla-on-no-route
   * applies only when the address has no binding at all (no queue, no divert); when it has bindings and they all
   * declined the message (filters, routing types, an exclusive divert), the message is dropped. A later change
   * (ARTEMIS-4911, in no release up to 2.44) dead-letters that case too: said as an unknown.
   */
  private noRoute(name: string, info: RoutingAddress | undefined, hop: Hop, bound: boolean, diverted: boolean): void {
    const dla = info?.deadLetterAddress ?? null;
    const dlaOn = info?.sendToDlaOnNoRoute === true && !hop.deadLettered;
    if (dlaOn && !bound) {
      if (dla === null) {
        this.settle(name, 'dropped');
        this.notes.push({
          kind: 'no-route',
          text: `No queue at ${name} takes it and send-to-dla-on-no-route is on, but no dead-letter address is set: it is dropped (the broker logs it).`,
          itemId: address(name),
        });
        return;
      }
      this.notes.push({
        kind: 'dead-letter',
        text: `${name} has no queue: send-to-dla-on-no-route sends it to the dead-letter address ${dla}.`,
        itemId: address(name),
      });
      this.path.add(edgeId('dead-letter', address(name), address(dla)));
      const taken = this.route(dla, {
        ...hop,
        routingType: null,
        via: 'dead-letter',
        trail: [],
        deadLettered: true,
        onlyQueue: null,
      });
      if (taken) this.settle(name, 'dead-lettered');
      return;
    }
    if (dlaOn && dla !== null)
      this.unknowns.push({
        kind: 'dead-letter',
        text: `${diverted ? `The original, diverted away from ${name},` : `No queue at ${name} takes it, which`} is not sent to the dead-letter address by Artemis up to 2.44 (${name} has bindings, they all declined it); brokers with ARTEMIS-4911 send it to ${dla}.`,
        itemId: address(name),
      });
    if (diverted) return;
    this.settle(name, 'dropped');
    this.notes.push({
      kind: 'no-route',
      text: dlaOn
        ? `No queue at ${name} takes it: it is dropped.`
        : `No queue at ${name} takes it: it is dropped (send-to-dla-on-no-route is off).`,
      itemId: address(name),
    });
  }

  /** The first address the message itself is sent to decides the node's outcome when no queue takes it. */
  private settle(name: string, outcome: WhereOutcome): void {
    if (name === this.firstAddress && this.outcome === null) this.outcome = outcome;
  }

  get firstAddress(): string {
    return splitQualified(this.message.address).address;
  }
}

function dedupe(notes: readonly WhereNote[]): WhereNote[] {
  const seen = new Set<string>();
  return notes.filter((note) => {
    const key = `${note.kind}\u0000${note.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `orders::eu` → the address orders and the queue eu (a fully qualified queue name). */
function splitQualified(name: string): { address: string; queue: string | null } {
  const at = name.indexOf('::');
  return at === -1 ? { address: name, queue: null } : { address: name.slice(0, at), queue: name.slice(at + 2) };
}

function answerNode(view: RoutingNodeView, views: readonly RoutingNodeView[], message: ProbeMessage): WhereNodeAnswer {
  const walk = new NodeWalk(view, message);
  const { address: target, queue } = splitQualified(message.address);
  walk.route(target, {
    routingType: message.routingType ?? null,
    via: 'address',
    transformedBy: null,
    trail: [],
    deadLettered: false,
    onlyQueue: queue,
  });
  if (queue !== null)
    walk.notes.push({
      kind: 'filter',
      text: `Sent to the fully qualified queue ${message.address}: only ${queue} may receive it (diverts still apply).`,
      itemId: itemId('queue', queue),
    });
  const answer = walk.answer();
  return { ...answer, unknowns: [...answer.unknowns, ...clusterUnknowns(view, views, answer)] };
}

const QUESTION_NOTES = (message: ProbeMessage): WhereNote[] =>
  message.routingType
    ? []
    : [
        {
          kind: 'routing-type',
          text: 'No routing type given: answered as for a producer that sends without one (anycast and multicast queues alike). JMS and AMQP clients usually set one — a queue destination ANYCAST, a topic MULTICAST — and then reach only queues of that type.',
        },
      ];

/** Where `message` would go on each node of `views`, with what cannot be known and where the nodes disagree. */
export function whereWouldItGo(views: readonly RoutingNodeView[], message: ProbeMessage): WhereAnswer {
  const nodes = views.map((view) => answerNode(view, views, message));
  const highlighted = new Set<string>();
  for (const node of nodes) for (const id of [...node.items, ...node.path]) highlighted.add(id);
  return {
    address: message.address,
    nodes,
    ...summarise(nodes),
    highlighted: [...highlighted].sort(),
    notes: QUESTION_NOTES(message),
  };
}
