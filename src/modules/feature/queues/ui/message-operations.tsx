'use client';
// The Operate menu's operations on a queue's messages: purge them all, delete or move those a JMS selector matches,
// send dead letters back where they died. Each is a spec for the broker command dialog.
import { TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { OperationDialog, type OperationSpec } from '@/modules/platform/commands/ui.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import {
  MESSAGES,
  SelectorField,
  actingNodes,
  messages,
  messagesDone,
  useRun,
  type OperationProps,
} from './queue-operation-kit.tsx';
import { TargetQueuePicker } from './target-queue-picker.tsx';

export function PurgeOperation({ clusterId, queue, onClose, notice }: OperationProps) {
  const trpc = useTRPC();
  const run = useRun(useMutation(trpc.queues.purge.mutationOptions()).mutateAsync);
  const spec: OperationSpec = {
    title: `Purge ${queue.queueName}`,
    notice,
    description: 'Removes every message of the queue on every node that has it. Consumers keep their place.',
    parameters: '',
    ready: true,
    hold: { action: 'Purge', noun: MESSAGES },
    summary: (preview) => `${messages(preview.affectedCount)} on ${actingNodes(preview)} would be removed.`,
    done: messagesDone('removed'),
    run: (flags) => run({ clusterId, queueName: queue.queueName, ...flags }),
    auditTarget: queue.queueName,
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}

export function DeleteMessagesOperation({ clusterId, queue, onClose, notice }: OperationProps) {
  const trpc = useTRPC();
  const run = useRun(useMutation(trpc.queues.deleteMessages.mutationOptions()).mutateAsync);
  const [filter, setFilter] = useState('');
  const selector = filter.trim();
  const spec: OperationSpec = {
    title: `Delete messages of ${queue.queueName}`,
    notice,
    description: 'Removes the messages that match a selector, evaluated by each broker over its whole copy.',
    form: <SelectorField value={filter} onChange={setFilter} description="Empty: every message of the queue" />,
    parameters: selector,
    ready: true,
    hold: { action: 'Delete', noun: MESSAGES },
    summary: (preview) =>
      `${messages(preview.affectedCount)} ${selector ? `matching ${selector}` : '(every message)'} on ${actingNodes(preview)} would be removed.`,
    done: messagesDone('removed'),
    run: (flags) => run({ clusterId, queueName: queue.queueName, ...(selector ? { filter: selector } : {}), ...flags }),
    auditTarget: queue.queueName,
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}

export function MoveMessagesOperation({ clusterId, queue, onClose, notice }: OperationProps) {
  const trpc = useTRPC();
  const run = useRun(useMutation(trpc.queues.moveMessages.mutationOptions()).mutateAsync);
  const [filter, setFilter] = useState('');
  const [target, setTarget] = useState<string | null>(null);
  const selector = filter.trim();
  const spec: OperationSpec = {
    title: `Move messages of ${queue.queueName}`,
    notice,
    description: 'Moves the messages that match a selector to another queue, on every node that has both.',
    form: (
      <>
        <SelectorField value={filter} onChange={setFilter} description="Empty: every message of the queue" />
        <TargetQueuePicker clusterId={clusterId} queueName={queue.queueName} value={target} onChange={setTarget} />
      </>
    ),
    parameters: JSON.stringify([selector, target]),
    ready: target !== null,
    hold: { action: 'Move', noun: MESSAGES },
    summary: (preview) =>
      `${messages(preview.affectedCount)} ${selector ? `matching ${selector}` : '(every message)'} on ${actingNodes(preview)} would move to ${target ?? ''}.`,
    done: (result) => `${messagesDone('moved')(result)} to ${target ?? ''}`,
    run: (flags) =>
      run({
        clusterId,
        queueName: queue.queueName,
        targetQueue: target ?? '',
        ...(selector ? { filter: selector } : {}),
        ...flags,
      }),
    auditTarget: queue.queueName,
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}

export function RetryOperation({ clusterId, queue, onClose, notice }: OperationProps) {
  const trpc = useTRPC();
  const run = useRun(useMutation(trpc.queues.retryMessages.mutationOptions()).mutateAsync);
  const [address, setAddress] = useState('');
  const original = address.trim();
  const spec: OperationSpec = {
    title: `Retry dead letters of ${queue.queueName}`,
    notice,
    description: 'Sends dead letters back to the address each one died on (the broker reads it from the message).',
    form: (
      <TextInput
        label="Only those that died on this address"
        placeholder="e.g. orders"
        description="Empty: every message of this dead-letter queue"
        value={address}
        onChange={(event) => setAddress(event.currentTarget.value)}
      />
    ),
    parameters: original,
    ready: true,
    hold: { action: 'Retry', noun: MESSAGES },
    summary: (preview) =>
      `${messages(preview.affectedCount)} on ${actingNodes(preview)} would go back to ${original || 'their original addresses'}.`,
    done: messagesDone('sent back'),
    run: (flags) =>
      run({ clusterId, queueName: queue.queueName, ...(original ? { originalAddress: original } : {}), ...flags }),
    auditTarget: queue.queueName,
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}
