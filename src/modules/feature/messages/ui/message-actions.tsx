'use client';
// What can be done to the one message open in the drawer, on the node it was read from: delete it, move it to
// another queue, or (on a dead-letter queue) send it back where it died. Each is the queue operation by id
// (messageIds: [id], nodeId) through the broker command dialog: a dry run, the hold, the outcome; then the page is
// read again. The broker's own id of a message comes with the management channel only: a page read natively
// carries the message's AMQP id instead, so there the actions offer to read the page over management first.
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconArrowBackUp, IconArrowsRightLeft, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { CapabilityNote, GateIcon, GateTooltip, type CapabilityGate } from '@/modules/platform/clusters/ui.ts';
import {
  OperationDialog,
  type CommandResult,
  type OperationSpec,
  type RunFlags,
} from '@/modules/platform/commands/ui.ts';
import { TargetQueuePicker } from '@/modules/feature/queues/ui.ts';
import { useTRPC } from '@/ui/data/trpc.ts';

type Action = 'delete' | 'move' | 'retry';

/** Where the message open in the drawer was read. */
export interface MessageOrigin {
  readonly clusterId: string;
  readonly queueName: string;
  /** The node whose copy was browsed (the browse answer's nodeId). */
  readonly nodeId: string;
  readonly nodeName: string;
  readonly channel: 'native' | 'management';
  readonly deadLetter: boolean;
}

/** The broker's id of a message: the management channel's messageId (digits); a native page has none. */
function brokerIdOf(messageId: string, channel: MessageOrigin['channel']): string | undefined {
  return channel === 'management' && /^\d{1,19}$/.test(messageId) ? messageId : undefined;
}

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

const DIALOGS = { delete: DeleteDialog, move: MoveDialog, retry: RetryDialog } satisfies Record<Action, unknown>;

/**
 * The drawer's actions for one message. `onDone` runs when the dialog of a real (not dry) run is closed: the drawer
 * closes (the page was read again when the run finished). `onReadOverManagement` is offered on a natively read page, which has no broker ids.
 */
export function MessageActions({
  origin,
  messageId,
  gate,
  onDone,
  onReadOverManagement,
}: {
  origin: MessageOrigin;
  messageId: string;
  gate: CapabilityGate;
  onDone: () => void;
  onReadOverManagement: (() => void) | undefined;
}) {
  const [action, setAction] = useState<Action | undefined>();
  // A real run happened: closing its dialog closes the drawer too (the message is gone, or elsewhere).
  const [acted, setActed] = useState(false);
  const id = brokerIdOf(messageId, origin.channel);
  const Dialog = action && id ? DIALOGS[action] : undefined;
  const button = (which: Action, label: string, icon: ReactNode, colour?: string) => (
    <GateTooltip gate={gate}>
      <Button
        size="xs"
        variant="light"
        color={colour}
        leftSection={icon}
        rightSection={<GateIcon gate={gate} />}
        disabled={!id || gate.disabled}
        onClick={() => setAction(which)}
      >
        {label}
      </Button>
    </GateTooltip>
  );
  return (
    <Stack gap="xs" data-testid="message-actions">
      <Group gap="xs">
        {button('delete', 'Delete…', <IconTrash size={14} />, 'red')}
        {button('move', 'Move…', <IconArrowsRightLeft size={14} />)}
        {origin.deadLetter && button('retry', 'Retry…', <IconArrowBackUp size={14} />)}
      </Group>
      {gate.reason && <CapabilityNote gate={gate} />}
      {!id && (
        <Alert color="gray" variant="light" p="xs" data-testid="message-actions-need-id">
          <Stack gap={6}>
            <Text size="xs">
              {origin.channel === 'native'
                ? 'This page was read natively: AMQP carries the message’s own id, not the broker’s, and acting on one message needs the broker’s id. The management channel gives it (bodies and properties may be cut there).'
                : 'The broker gave no id for this message, so it cannot be acted on alone; use a selector in the queue’s Operate menu.'}
            </Text>
            {onReadOverManagement && (
              <Group>
                <Button size="compact-xs" variant="default" onClick={onReadOverManagement}>
                  Read this page over management
                </Button>
              </Group>
            )}
          </Stack>
        </Alert>
      )}
      {Dialog && id && (
        <Dialog
          key={action}
          origin={origin}
          id={id}
          notice={<CapabilityNote gate={gate} />}
          onClose={() => {
            setAction(undefined);
            if (acted) onDone();
          }}
          onDone={() => setActed(true)}
        />
      )}
    </Stack>
  );
}
