'use client';
// Close a client connection on the node that issued it, through the operation dialog, with its sessions,
// consumers and producers.
import { Anchor } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { CapabilityNote, type CapabilityGate } from '@/modules/platform/clusters/ui.ts';
import { OperationDialog, type OperationSpec } from '@/modules/platform/commands/ui.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { acting } from './command-words.ts';
import { resourceListPath } from './resource-paths.ts';
import { useRefreshResources } from './use-refresh-resources.ts';

export function CloseConnectionDialog({
  clusterId,
  connectionId,
  nodeId,
  nodeName,
  gate,
  onClose,
}: {
  clusterId: string;
  connectionId: string;
  nodeId: string;
  nodeName: string;
  gate: CapabilityGate;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const refresh = useRefreshResources();
  const close = useMutation(trpc.resources.closeConnection.mutationOptions());
  const spec: OperationSpec = {
    title: `Close connection ${connectionId}`,
    description: `Closes the client connection on ${nodeName}, the node that issued it, with its sessions, consumers and producers. A client that reconnects by itself comes back as a new connection.`,
    notice: <CapabilityNote gate={gate} />,
    parameters: '',
    ready: true,
    hold: { action: 'Close', noun: ['connection', 'connections'], count: 1 },
    summary: (preview) =>
      acting(preview, 'WOULD_APPLY') > 0
        ? `The connection would be closed on ${nodeName}.`
        : `${nodeName} cannot close it now (see the node below).`,
    done: (result) => (result.appliedCount > 0 ? `Closed on ${nodeName}` : `${nodeName} no longer had the connection`),
    run: async (flags) => {
      const result = await close.mutateAsync({ clusterId, connectionId, nodeId, dryRun: flags.dryRun });
      if (!flags.dryRun) await refresh();
      return result;
    },
    auditTarget: connectionId,
    afterwards: (
      <Anchor component={Link} href={resourceListPath(clusterId, 'connections')} size="sm">
        Back to the connections
      </Anchor>
    ),
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}
