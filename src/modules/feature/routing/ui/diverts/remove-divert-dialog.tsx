'use client';
// Remove a divert from every node that has it, through the operation dialog: a dry run per node, then held to
// confirm. Messages sent to its address afterwards are no longer forwarded.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CapabilityNote, type CapabilityGate } from '@/modules/platform/clusters/ui.ts';
import { OperationDialog, type OperationSpec } from '@/modules/platform/commands/ui.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { didAct, leftAlone, wouldAct } from './divert-words.ts';

export function RemoveDivertDialog({
  clusterId,
  divert,
  gate,
  onClose,
}: {
  clusterId: string;
  divert: string;
  gate: CapabilityGate;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(trpc.routing.diverts.remove.mutationOptions());
  const spec: OperationSpec = {
    title: `Remove divert ${divert}`,
    description:
      'Removes the divert from every node that has it. Messages sent to its source address are then routed to that address’s own queues only; nothing already forwarded moves.',
    notice: <CapabilityNote gate={gate} />,
    parameters: divert,
    ready: true,
    hold: { action: 'Remove', noun: ['divert', 'diverts'], count: 1 },
    summary: (preview) => `${divert} would be removed from ${wouldAct(preview)}${leftAlone(preview, 'lacks it')}.`,
    done: (result) => `${divert} removed from ${didAct(result)}`,
    run: async (flags) => {
      const result = await remove.mutateAsync({ clusterId, divert, dryRun: flags.dryRun });
      if (!flags.dryRun) await queryClient.invalidateQueries({ queryKey: trpc.routing.pathKey() });
      return result;
    },
    auditTarget: divert,
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}
