'use client';
// What the queue page's operations share: their props, a run that refreshes the queue's numbers, the selector
// field, and the words their previews and outcomes are told in ("4 messages removed on 1 node").
import { TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { formatCount, type CommandResult, type RunFlags } from '@/modules/platform/commands/ui.ts';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';

export type Queue = RouterOutputs['queues']['get'];

export interface OperationProps {
  readonly clusterId: string;
  readonly queue: Queue;
  readonly onClose: () => void;
  /** What the capability ledger says is uncertain about writes on the cluster (CapabilityNote), if anything. */
  readonly notice: ReactNode;
}

/** The queue's operations all refresh the queue's numbers when done (the stream signal follows too). */
export function useRun<Input>(call: (input: Input) => Promise<CommandResult>) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async (input: Input & Pick<RunFlags, 'dryRun'>) => {
    const result = await call(input);
    if (!input.dryRun) await queryClient.invalidateQueries(trpc.queues.pathFilter());
    return result;
  };
}

export function SelectorField({
  value,
  onChange,
  description,
}: {
  value: string;
  onChange: (value: string) => void;
  description: string;
}) {
  return (
    <TextInput
      label="Filter (JMS selector)"
      placeholder="e.g. priority > 4 AND region = 'eu'"
      description={description}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
    />
  );
}

export const MESSAGES = ['message', 'messages'] as const;
export const messages = (count: number) => `${formatCount(count)} ${count === 1 ? 'message' : 'messages'}`;
const nodesWord = (count: number) => `${count} ${count === 1 ? 'node' : 'nodes'}`;
export const actingNodes = (preview: CommandResult) =>
  nodesWord(preview.nodes.filter((node) => node.outcome === 'WOULD_APPLY').length);
export const appliedNodes = (result: CommandResult) =>
  nodesWord(result.nodes.filter((node) => node.outcome === 'APPLIED').length);
/** "4 messages removed on 1 node". */
export const messagesDone = (verb: string) => (result: CommandResult) =>
  `${messages(result.appliedCount)} ${verb} on ${appliedNodes(result)}`;
