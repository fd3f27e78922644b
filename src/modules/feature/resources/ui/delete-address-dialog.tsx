'use client';
// Delete an address on every node that has it, through the operation dialog; with force its queues go too, with
// their messages.
import { Anchor, Checkbox } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { CapabilityNote, type CapabilityGate } from '@/modules/platform/clusters/ui.ts';
import { OperationDialog, type OperationSpec } from '@/modules/platform/commands/ui.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { acting, nodesWord } from './command-words.ts';
import { resourceListPath } from './resource-paths.ts';
import { useRefreshResources } from './use-refresh-resources.ts';

export function DeleteAddressDialog({
  clusterId,
  address,
  gate,
  onClose,
}: {
  clusterId: string;
  address: string;
  gate: CapabilityGate;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const refresh = useRefreshResources();
  const remove = useMutation(trpc.resources.deleteAddress.mutationOptions());
  const [force, setForce] = useState(false);
  const spec: OperationSpec = {
    title: `Delete address ${address}`,
    description:
      'Deletes the address on every node that has it. Without force a broker refuses an address that still has queues bound to it.',
    notice: <CapabilityNote gate={gate} />,
    form: (
      <Checkbox
        label="Force: delete its queues too"
        description="Every queue bound to the address goes with it, with all of its messages, and their consumers are disconnected. This cannot be undone."
        checked={force}
        onChange={(event) => setForce(event.currentTarget.checked)}
        color="red"
      />
    ),
    parameters: String(force),
    ready: true,
    hold: { action: 'Delete', noun: ['address', 'addresses'], count: 1 },
    summary: (preview) =>
      `${address} would be deleted on ${nodesWord(acting(preview, 'WOULD_APPLY'))}${force ? ', with its queues and their messages' : '; a node where queues are bound to it refuses'}.`,
    done: (result) => `${address} deleted on ${nodesWord(acting(result, 'APPLIED'))}`,
    run: async (flags) => {
      const result = await remove.mutateAsync({ clusterId, address, force, dryRun: flags.dryRun });
      if (!flags.dryRun) await refresh();
      return result;
    },
    auditTarget: address,
    afterwards: (
      <Anchor component={Link} href={resourceListPath(clusterId, 'addresses')} size="sm">
        Back to the addresses
      </Anchor>
    ),
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}
