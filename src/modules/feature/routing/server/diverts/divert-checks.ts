// What is refused before a divert write reaches the command sequence (and so before its audit row), from the nodes'
// routing read: a divert already on every node, or on one with another definition (409); a name a queue holds (a
// divert and a queue are bindings of one namespace, 409); a divert forwarding to its own address (400); removing a
// divert no node has (404). Pure: the caller reads the nodes.
import { ProblemError, validationProblem } from '@/modules/kernel/core/index.ts';
import type { RoutingDivert, RoutingNodeView } from '../../model/routing-view.ts';

export type DivertDefinition = Pick<
  RoutingDivert,
  'name' | 'address' | 'forwardingAddress' | 'exclusive' | 'filter' | 'routingType'
>;

const DEFINING = ['address', 'forwardingAddress', 'exclusive', 'filter', 'routingType'] as const;

const holding = (views: readonly RoutingNodeView[], name: string) =>
  views.flatMap((view) =>
    view.diverts.filter((divert) => divert.name === name).map((divert) => ({ node: view.nodeName, divert })),
  );

const names = (list: readonly { node: string }[]) => list.map((entry) => entry.node).join(', ');

export function refuseCreate(views: readonly RoutingNodeView[], asked: DivertDefinition): void {
  if (asked.address === asked.forwardingAddress)
    throw new ProblemError(
      validationProblem(
        [{ field: 'forwardingAddress', message: 'must differ from the source address' }],
        'A divert forwarding to its own address would route each message back to itself. Nothing was done.',
      ),
    );
  const queue = views.flatMap((view) => view.queues).find((candidate) => candidate.name === asked.name);
  if (queue)
    throw new ProblemError({
      type: 'divert-name-taken',
      title: 'A queue has that name',
      status: 409,
      detail: `A queue named ${asked.name} (on ${queue.address}) exists: a divert and a queue cannot share a name. Nothing was done.`,
      divert: asked.name,
    });
  const held = holding(views, asked.name);
  const different = held.filter(({ divert }) => DEFINING.some((field) => divert[field] !== asked[field]));
  if (different.length > 0 || (held.length > 0 && held.length === views.length))
    throw new ProblemError({
      type: 'divert-exists',
      title: 'The divert exists',
      status: 409,
      detail:
        different.length > 0
          ? `A divert named ${asked.name} exists on ${names(different)} with another definition. Remove it first, or choose another name. Nothing was done.`
          : `The divert ${asked.name} exists on every node. Nothing was done.`,
      divert: asked.name,
      nodes: held.map((entry) => entry.node),
    });
}

/** The divert as the first node holding it defines it, for the audit row and the reserved-address check. */
export function divertToRemove(
  views: readonly RoutingNodeView[],
  name: string,
  everyNodeRead: boolean,
): RoutingDivert | undefined {
  const [first] = holding(views, name);
  if (!first && everyNodeRead)
    throw new ProblemError({
      type: 'divert-not-found',
      title: 'No such divert',
      status: 404,
      detail: `No node of the cluster has a divert named ${name}. Nothing was done.`,
      divert: name,
    });
  return first?.divert;
}
