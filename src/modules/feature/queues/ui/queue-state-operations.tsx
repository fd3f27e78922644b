'use client';
// The Operate menu's operations on the queue itself: pause or resume delivery, delete the queue. Each is a spec for
// the broker command dialog.
import { Anchor, Checkbox } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { OperationDialog, type OperationSpec } from '@/modules/platform/commands/ui.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { actingNodes, appliedNodes, messages, useRun, type OperationProps } from './queue-operation-kit.tsx';
import { queuesPath } from './queue-paths.ts';

export function PauseOperation({ clusterId, queue, onClose, notice }: OperationProps) {
  const trpc = useTRPC();
  const run = useRun(useMutation(trpc.queues.pause.mutationOptions()).mutateAsync);
  const [persist, setPersist] = useState(false);
  const spec: OperationSpec = {
    title: `Pause ${queue.queueName}`,
    notice,
    description: 'Stops delivery to consumers; messages keep arriving and wait in the queue until it is resumed.',
    form: (
      <Checkbox
        label="Keep it paused across broker restarts"
        checked={persist}
        onChange={(event) => setPersist(event.currentTarget.checked)}
      />
    ),
    parameters: String(persist),
    ready: true,
    applyLabel: (preview) => `Pause on ${actingNodes(preview)}`,
    summary: (preview) =>
      `Delivery would stop on ${actingNodes(preview)}${persist ? ', and stay stopped across restarts' : ' until resumed or restarted'}.`,
    done: (result) => `Paused on ${appliedNodes(result)}`,
    run: ({ dryRun }) => run({ clusterId, queueName: queue.queueName, persist, dryRun }),
    auditTarget: queue.queueName,
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}

export function ResumeOperation({ clusterId, queue, onClose, notice }: OperationProps) {
  const trpc = useTRPC();
  const run = useRun(useMutation(trpc.queues.resume.mutationOptions()).mutateAsync);
  const spec: OperationSpec = {
    title: `Resume ${queue.queueName}`,
    notice,
    description: 'Delivers the queue’s messages to its consumers again.',
    parameters: '',
    ready: true,
    applyLabel: (preview) => `Resume on ${actingNodes(preview)}`,
    summary: (preview) => `Delivery would resume on ${actingNodes(preview)}.`,
    done: (result) => `Resumed on ${appliedNodes(result)}`,
    run: ({ dryRun }) => run({ clusterId, queueName: queue.queueName, dryRun }),
    auditTarget: queue.queueName,
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}

export function DeleteQueueOperation({ clusterId, queue, onClose, notice }: OperationProps) {
  const trpc = useTRPC();
  const run = useRun(useMutation(trpc.queues.remove.mutationOptions()).mutateAsync);
  const spec: OperationSpec = {
    title: `Delete ${queue.queueName}`,
    notice,
    description:
      'Deletes the queue on every node that has it, with its messages; its consumers are disconnected from it.',
    parameters: '',
    ready: true,
    hold: { action: 'Delete', noun: ['queue', 'queues'], count: 1 },
    summary: (preview) =>
      `The queue and its ${messages(preview.affectedCount)} would be deleted on ${actingNodes(preview)}.`,
    done: (result) => `Deleted on ${appliedNodes(result)}, with ${messages(result.appliedCount)}`,
    run: (flags) => run({ clusterId, queueName: queue.queueName, ...flags }),
    auditTarget: queue.queueName,
    afterwards: (
      <Anchor component={Link} href={queuesPath(clusterId)} size="sm">
        Back to the queues
      </Anchor>
    ),
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}
