// queue_action: the queue operations of the queues module behind one `action` discriminator, through the broker
// command sequence those procedures run (per-node preview, bulk cap, audit before any broker call). The spec's five
// operations are purge, delete, move, retry and pause; resume is pause's undo. Destructive ones need confirm.
import { z } from 'zod';
import { commandView } from './command-view.ts';
import { gateArguments, nextStep, passGates } from './gates.ts';
import { callProcedure } from './procedure-errors.ts';
import { checkChoice, clusterIdArgument, defineTool, requireArgument } from './tool-kit.ts';

const ACTIONS = {
  purge: { procedure: 'queues.purge', destructive: true },
  delete: { procedure: 'queues.deleteMessages', destructive: true },
  move: { procedure: 'queues.moveMessages', destructive: true },
  retry: { procedure: 'queues.retryMessages', destructive: true },
  pause: { procedure: 'queues.pause', destructive: false },
  resume: { procedure: 'queues.resume', destructive: false },
} as const;
type Action = keyof typeof ACTIONS;

export const queueActionTool = defineTool({
  name: 'queue_action',
  module: 'queues',
  description: () => `A queue, on every node: ${Object.keys(ACTIONS).join('|')}. move needs targetQueue.`,
  arguments: {
    clusterId: clusterIdArgument,
    queue: z.string().min(1).max(1000),
    action: z.string().max(40),
    targetQueue: z.string().min(1).max(1000).optional(),
    filter: z.string().max(4000).optional().describe('JMS selector'),
    messageIds: z.array(z.string().max(19)).max(10_000).optional().describe('On nodeId'),
    nodeId: z.string().max(100).optional(),
    ...gateArguments,
  },
  annotations: { destructiveHint: true },
  run: async (args, context) => {
    const action = checkChoice<Action>('action', args.action, Object.keys(ACTIONS) as Action[]);
    const { procedure, destructive } = ACTIONS[action];
    const targetQueue =
      action === 'move' ? requireArgument(args.targetQueue, 'action=move needs targetQueue.') : undefined;
    const subject = { kind: 'queue', name: args.queue, destructive };
    const { dryRun, override } = passGates(args, subject);
    const selection = action === 'delete' || action === 'move' || action === 'retry';
    const input = {
      clusterId: args.clusterId,
      queueName: args.queue,
      dryRun,
      ...(destructive ? { override } : {}),
      ...(targetQueue ? { targetQueue } : {}),
      ...(selection && args.filter && action !== 'retry' ? { filter: args.filter } : {}),
      ...(selection && args.messageIds ? { messageIds: args.messageIds } : {}),
      ...(selection && args.nodeId ? { nodeId: args.nodeId } : {}),
    };
    return commandView(await callProcedure(context, procedure, input), nextStep(subject));
  },
});
