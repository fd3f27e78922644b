// route_message: "where would this message go?" (the routing module's routing.where) in an agent's terms — per node the
// outcome and the queues that would receive it, the diverts passed, and what the answer cannot know. Read-only: the
// brokers are read, nothing is sent.
import { z } from 'zod';
import { callProcedure } from './procedure-errors.ts';
import { asRow, asRows, pick } from './project.ts';
import { clusterIdArgument, defineTool } from './tool-kit.ts';

const texts = (value: unknown) => asRows(value).map((note) => note.text);

export const routeMessageTool = defineTool({
  name: 'route_message',
  module: 'routing',
  description: () =>
    'Where a message sent to an address would go on each node (diverts, filters, routing types): queues, outcome, unknowns. Sends nothing.',
  arguments: {
    clusterId: clusterIdArgument,
    address: z.string().min(1).max(255),
    routingType: z.enum(['ANYCAST', 'MULTICAST']).optional(),
    properties: z.record(z.string().min(1).max(128), z.union([z.string(), z.number(), z.boolean()])).optional(),
  },
  annotations: { readOnlyHint: true },
  run: async ({ clusterId, address, routingType, properties }, context) => {
    const answer = asRow(
      await callProcedure(context, 'routing.where', {
        clusterId,
        address,
        ...(routingType ? { routingType } : {}),
        properties: properties ?? {},
      }),
    );
    return {
      address: answer.address,
      nodesAgree: answer.agree,
      differences: texts(answer.differences),
      nodes: asRows(answer.nodes).map((node) => ({
        node: node.nodeName,
        outcome: node.outcome,
        queues: asRows(node.receivingQueues).map((queue) =>
          pick(queue, ['name', 'address', 'via', 'share', 'certain']),
        ),
        diverts: asRows(node.diverted).map((divert) => pick(divert, ['name', 'forwardingAddress', 'exclusive'])),
        notes: texts(node.notes),
        unknowns: texts(node.unknowns),
      })),
      unreadNodes: asRows(answer.failures).map((failure) => failure.nodeName),
      readAt: answer.readAt,
    };
  },
});
