'use client';
// Redrive from the dead-letter list: the selected queues of one cluster, each whole or only the messages that died on
// one original address, as one redrive command through the queue operations' one dialog (dry run first, node by
// node, then the hold to confirm, and over the bulk cap the override).
import { Select } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { CapabilityNote, type CapabilityGate } from '@/modules/platform/clusters/ui.ts';
import { OperationDialog, formatCount, type OperationSpec } from '@/modules/platform/commands/ui.ts';
import { rowKey, type DeadLetterRow as Row } from './dead-letter-columns.tsx';

const EVERY = '*';
const messages = (count: number) => `${formatCount(count)} ${count === 1 ? 'message' : 'messages'}`;

/** The selected queues of one cluster, each whole or one original address, as one redrive command. */
export function RedriveDialog({
  rows,
  gate,
  onClose,
}: {
  rows: readonly Row[];
  gate: CapabilityGate;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const redrive = useMutation(trpc.queues.redriveDeadLetters.mutationOptions());
  const [scopes, setScopes] = useState<Record<string, string>>({});
  const [first] = rows;
  if (!first) return null;
  const items = rows.map((row) => {
    const scope = scopes[rowKey(row)] ?? EVERY;
    return { queueName: row.queueName, ...(scope === EVERY ? {} : { originalAddress: scope }) };
  });
  const spec: OperationSpec = {
    title: `Redrive ${rows.length === 1 ? first.queueName : `${rows.length} dead-letter queues`} of ${first.clusterName}`,
    description:
      'Sends the messages back to the address each one died on (the broker reads it from the message): every message of a queue, or only those of one original address.',
    notice: <CapabilityNote gate={gate} />,
    form: rows.map((row) => (
      <Select
        key={rowKey(row)}
        label={row.queueName}
        data={[
          { value: EVERY, label: 'Every message' },
          ...row.originalAddresses.map((original) => ({
            value: original.address,
            label: `Only those that died on ${original.address} (${formatCount(original.count)})`,
          })),
        ]}
        value={scopes[rowKey(row)] ?? EVERY}
        onChange={(value) => setScopes((current) => ({ ...current, [rowKey(row)]: value ?? EVERY }))}
        allowDeselect={false}
      />
    )),
    parameters: JSON.stringify(items),
    ready: true,
    hold: { action: 'Redrive', noun: ['message', 'messages'] },
    summary: (preview) =>
      `${messages(preview.affectedCount)} of ${items.length === 1 ? 'this queue' : `${items.length} queues`} would go back to their original addresses.`,
    run: async (flags) => {
      const result = await redrive.mutateAsync({ clusterId: first.clusterId, items, ...flags });
      if (!flags.dryRun) await queryClient.invalidateQueries(trpc.queues.pathFilter());
      return result;
    },
    auditTarget: items.length === 1 ? first.queueName : `${items.length} dead-letter queue items`,
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}
