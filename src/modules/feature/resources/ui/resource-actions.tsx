'use client';
// The resources module's writes, each a broker command through the one dialog (dry run per node, confirmation,
// outcome, audit): create an address on every logical node, delete one (with force, its queues and their messages
// too), and close a client connection on the node that issued it. Each sits behind a button gated by the cluster's
// capability ledger (writes unavailable: disabled with the reason; not confirmed yet: enabled, marked). A row menu
// opens the address or connection page with `?operate=` and the page opens the dialog.
import { Anchor, Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconPlugConnectedX, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import {
  CapabilityNote,
  GateIcon,
  GateTooltip,
  useCapabilityGate,
  type CapabilityGate,
} from '@/modules/platform/clusters/ui.ts';
import { OperationDialog, type CommandResult, type OperationSpec } from '@/modules/platform/commands/ui.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { addressPath, resourceListPath } from './resource-paths.ts';

type RoutingType = 'ANYCAST' | 'MULTICAST';

const acting = (result: CommandResult, outcome: 'WOULD_APPLY' | 'APPLIED') =>
  result.nodes.filter((node) => node.outcome === outcome).length;
const nodesWord = (count: number) => `${count} ${count === 1 ? 'node' : 'nodes'}`;

/** After a real run the resources lists are read again (the server forgot what it kept of them). */
function useRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries(trpc.resources.pathFilter()),
      queryClient.invalidateQueries(trpc.queues.pathFilter()),
    ]);
  };
}

/** The page's `?operate=` value and a way to set or clear it (the row menus link to it). */
function useOperateParam(): [string | null, (next: string | undefined) => void] {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const set = (next: string | undefined) => {
    const query = new URLSearchParams(params.toString());
    if (next) query.set('operate', next);
    else query.delete('operate');
    const search = query.toString();
    router.replace(search ? `${pathname}?${search}` : pathname, { scroll: false });
  };
  return [params.get('operate'), set];
}

/** A write button with its gate: disabled with the reason when writes are unavailable, marked when uncertain. */
function GatedButton({
  gate,
  icon,
  colour,
  onClick,
  children,
}: {
  gate: CapabilityGate;
  icon: ReactNode;
  colour?: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <GateTooltip gate={gate}>
      <Button
        size="xs"
        variant={colour ? 'light' : 'filled'}
        color={colour}
        leftSection={icon}
        rightSection={<GateIcon gate={gate} />}
        disabled={gate.disabled}
        onClick={onClick}
      >
        {children}
      </Button>
    </GateTooltip>
  );
}

function CreateAddressDialog({
  clusterId,
  gate,
  onClose,
}: {
  clusterId: string;
  gate: CapabilityGate;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const create = useMutation(trpc.resources.createAddress.mutationOptions());
  const [name, setName] = useState('');
  const [anycast, setAnycast] = useState(true);
  const [multicast, setMulticast] = useState(false);
  const routingTypes: RoutingType[] = [
    ...(anycast ? ['ANYCAST' as const] : []),
    ...(multicast ? ['MULTICAST' as const] : []),
  ];
  const trimmed = name.trim();
  const spec: OperationSpec = {
    title: 'Create an address',
    description: 'Creates the address on every logical node of the cluster, with no queue bound to it yet.',
    notice: <CapabilityNote gate={gate} />,
    form: (
      <>
        <TextInput
          label="Name"
          required
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          data-autofocus
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Routing types
          </Text>
          <Group gap="lg">
            <Checkbox
              label="Anycast (point to point)"
              checked={anycast}
              onChange={(event) => setAnycast(event.currentTarget.checked)}
            />
            <Checkbox
              label="Multicast (publish–subscribe)"
              checked={multicast}
              onChange={(event) => setMulticast(event.currentTarget.checked)}
            />
          </Group>
          {routingTypes.length === 0 && (
            <Text size="xs" c="red">
              Choose at least one.
            </Text>
          )}
        </Stack>
      </>
    ),
    parameters: JSON.stringify([trimmed, routingTypes]),
    ready: trimmed.length > 0 && routingTypes.length > 0,
    applyLabel: (preview) => `Create on ${nodesWord(acting(preview, 'WOULD_APPLY'))}`,
    summary: (preview) =>
      `${trimmed} (${routingTypes.map((type) => type.toLowerCase()).join(' and ')}) would be created on ${nodesWord(acting(preview, 'WOULD_APPLY'))}; a node that already has it says so.`,
    done: (result) => `${trimmed} created on ${nodesWord(acting(result, 'APPLIED'))}`,
    run: async (flags) => {
      const result = await create.mutateAsync({ clusterId, name: trimmed, routingTypes, dryRun: flags.dryRun });
      if (!flags.dryRun) await refresh();
      return result;
    },
    auditTarget: trimmed,
    afterwards: (
      <Anchor component={Link} href={addressPath(clusterId, trimmed)} size="sm">
        Open {trimmed}
      </Anchor>
    ),
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}

/** The Addresses screen's "Create address". */
export function CreateAddressButton({ clusterId }: { clusterId: string }) {
  const gate = useCapabilityGate(clusterId);
  const [open, setOpen] = useState(false);
  return (
    <>
      <GatedButton gate={gate} icon={<IconPlus size={14} />} onClick={() => setOpen(true)}>
        Create address
      </GatedButton>
      {open && !gate.disabled && (
        <CreateAddressDialog clusterId={clusterId} gate={gate} onClose={() => setOpen(false)} />
      )}
    </>
  );
}

function DeleteAddressDialog({
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
  const refresh = useRefresh();
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

/** The address page's "Delete address", opened by the button or by `?operate=delete` (the row menu's link). */
export function DeleteAddressButton({ clusterId, address }: { clusterId: string; address: string }) {
  const gate = useCapabilityGate(clusterId);
  const [operate, setOperate] = useOperateParam();
  return (
    <>
      <GatedButton gate={gate} icon={<IconTrash size={14} />} colour="red" onClick={() => setOperate('delete')}>
        Delete address
      </GatedButton>
      {operate === 'delete' && !gate.disabled && (
        <DeleteAddressDialog
          clusterId={clusterId}
          address={address}
          gate={gate}
          onClose={() => setOperate(undefined)}
        />
      )}
    </>
  );
}

function CloseConnectionDialog({
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
  const refresh = useRefresh();
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

/** The connection page's "Close connection", opened by the button or by `?operate=close` (the row menu's link). */
export function CloseConnectionButton({
  clusterId,
  connectionId,
  nodeId,
  nodeName,
}: {
  clusterId: string;
  connectionId: string;
  nodeId: string | undefined;
  nodeName: string | undefined;
}) {
  const gate = useCapabilityGate(clusterId);
  const [operate, setOperate] = useOperateParam();
  return (
    <>
      <GatedButton gate={gate} icon={<IconPlugConnectedX size={14} />} colour="red" onClick={() => setOperate('close')}>
        Close connection
      </GatedButton>
      {operate === 'close' && !gate.disabled && nodeId && (
        <CloseConnectionDialog
          clusterId={clusterId}
          connectionId={connectionId}
          nodeId={nodeId}
          nodeName={nodeName ?? nodeId}
          gate={gate}
          onClose={() => setOperate(undefined)}
        />
      )}
    </>
  );
}
