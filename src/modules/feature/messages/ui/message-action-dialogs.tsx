'use client';
// The dialogs of the drawer's actions on one message: delete it, move it to another queue, or send a dead letter
// back. Each is the queue operation by id (messageIds: [id], nodeId) through the broker command dialog; a real run
// reads the page again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import {
  OperationDialog,
  type CommandResult,
  type OperationSpec,
  type RunFlags,
} from '@/modules/platform/commands/ui.ts';
import { TargetQueuePicker } from '@/modules/feature/queues/ui.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import type { MessageOrigin } from './message-origin.ts';

export type MessageAction = 'delete' | 'move' | 'retry';

const ONE_MESSAGE = ['message', 'messages'] as const;
const nodesActing = (preview: CommandResult) => preview.nodes.filter((node) => node.outcome === 'WOULD_APPLY').length;

/** Runs the operation; after a real run, the page is read again and `onDone` notes it (the dialog stays open on the
 *  outcome until closed). */
function useRun<Input>(call: (input: Input) => Promise<CommandResult>, onDone: () => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async (input: Input & Pick<RunFlags, 'dryRun'>) => {
    const result = await call(input);
    if (!input.dryRun) {
      await Promise.all([
        queryClient.invalidateQueries(trpc.messages.browse.pathFilter()),
        queryClient.invalidateQueries(trpc.queues.pathFilter()),
      ]);
      onDone();
    }
    return result;
  };
}

interface DialogProps {
  readonly origin: MessageOrigin;
  readonly id: string;
  readonly notice: ReactNode;
  readonly onClose: () => void;
  readonly onDone: () => void;
}

function DeleteDialog({ origin, id, notice, onClose, onDone }: DialogProps) {
  const trpc = useTRPC();
  const run = useRun(useMutation(trpc.queues.deleteMessages.mutationOptions()).mutateAsync, onDone);
  const spec: OperationSpec = {
    title: `Delete message ${id} of ${origin.queueName}`,
    description: `Removes this one message from ${origin.nodeName}’s copy of the queue.`,
    notice,
    parameters: '',
    ready: true,
    hold: { action: 'Delete', noun: ONE_MESSAGE, count: 1 },
    summary: (preview) =>
      nodesActing(preview) > 0
        ? `Message ${id} would be removed on ${origin.nodeName}.`
        : `${origin.nodeName} cannot act on it now (see the node below).`,
    done: (result) => (result.appliedCount > 0 ? `Message ${id} removed` : `Message ${id} was no longer there`),
    run: (flags) =>
      run({
        clusterId: origin.clusterId,
        queueName: origin.queueName,
        messageIds: [id],
        nodeId: origin.nodeId,
        ...flags,
      }),
    auditTarget: origin.queueName,
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}

function MoveDialog({ origin, id, notice, onClose, onDone }: DialogProps) {
  const trpc = useTRPC();
  const run = useRun(useMutation(trpc.queues.moveMessages.mutationOptions()).mutateAsync, onDone);
  const [target, setTarget] = useState<string | null>(null);
  const spec: OperationSpec = {
    title: `Move message ${id} of ${origin.queueName}`,
    description: `Moves this one message from ${origin.nodeName}’s copy of the queue to another queue on that node.`,
    notice,
    form: (
      <TargetQueuePicker
        clusterId={origin.clusterId}
        queueName={origin.queueName}
        value={target}
        onChange={setTarget}
      />
    ),
    parameters: target ?? '',
    ready: target !== null,
    hold: { action: 'Move', noun: ONE_MESSAGE, count: 1 },
    summary: () => `Message ${id} would move to ${target ?? ''} on ${origin.nodeName}.`,
    done: (result) =>
      result.appliedCount > 0 ? `Message ${id} moved to ${target ?? ''}` : `Message ${id} was no longer there`,
    run: (flags) =>
      run({
        clusterId: origin.clusterId,
        queueName: origin.queueName,
        messageIds: [id],
        nodeId: origin.nodeId,
        targetQueue: target ?? '',
        ...flags,
      }),
    auditTarget: origin.queueName,
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}

function RetryDialog({ origin, id, notice, onClose, onDone }: DialogProps) {
  const trpc = useTRPC();
  const run = useRun(useMutation(trpc.queues.retryMessages.mutationOptions()).mutateAsync, onDone);
  const spec: OperationSpec = {
    title: `Retry message ${id} of ${origin.queueName}`,
    description: 'Sends this dead letter back to the address it died on (the broker reads it from the message).',
    notice,
    parameters: '',
    ready: true,
    hold: { action: 'Retry', noun: ONE_MESSAGE, count: 1 },
    summary: () => `Message ${id} would go back to its original address from ${origin.nodeName}.`,
    done: (result) => (result.appliedCount > 0 ? `Message ${id} sent back` : `Message ${id} was no longer there`),
    run: (flags) =>
      run({
        clusterId: origin.clusterId,
        queueName: origin.queueName,
        messageIds: [id],
        nodeId: origin.nodeId,
        ...flags,
      }),
    auditTarget: origin.queueName,
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}

export const MESSAGE_ACTION_DIALOGS = {
  delete: DeleteDialog,
  move: MoveDialog,
  retry: RetryDialog,
} satisfies Record<MessageAction, unknown>;
