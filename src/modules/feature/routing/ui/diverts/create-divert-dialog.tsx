'use client';
// Create a divert on every logical node through the operation dialog (dry run per node, confirmation, outcome, audit):
// its name, the address it takes messages from and the one it forwards to, exclusive or a copy, a filter, and the
// routing type of what it forwards. A node that already has it is left alone.
import { Checkbox, Select, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CapabilityNote, type CapabilityGate } from '@/modules/platform/clusters/ui.ts';
import { OperationDialog, type OperationSpec } from '@/modules/platform/commands/ui.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { didAct, leftAlone, wouldAct } from './divert-words.ts';

const ROUTING_TYPES = [
  { value: 'STRIP', label: 'Strip: no routing type (the forwarding address decides)' },
  { value: 'PASS', label: 'Pass: the original message’s' },
  { value: 'ANYCAST', label: 'Anycast' },
  { value: 'MULTICAST', label: 'Multicast' },
] as const;
type RoutingType = (typeof ROUTING_TYPES)[number]['value'];
const isRoutingType = (value: string | null): value is RoutingType =>
  ROUTING_TYPES.some((type) => type.value === value);

export function CreateDivertDialog({
  clusterId,
  gate,
  onClose,
}: {
  clusterId: string;
  gate: CapabilityGate;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const create = useMutation(trpc.routing.diverts.create.mutationOptions());
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const [forwardingAddress, setForwardingAddress] = useState('');
  const [exclusive, setExclusive] = useState(false);
  const [filter, setFilter] = useState('');
  const [routingType, setRoutingType] = useState<RoutingType>('STRIP');
  const divert = {
    name: name.trim(),
    address: address.trim(),
    forwardingAddress: forwardingAddress.trim(),
    exclusive,
    filter: filter.trim() || null,
    routingType,
  };
  const spec: OperationSpec = {
    title: 'Create a divert',
    description:
      'Creates the divert on every logical node of the cluster. Messages sent to the source address (those matching the filter, if any) are then forwarded: a copy, or, when exclusive, instead of being routed to the address’s own queues.',
    notice: <CapabilityNote gate={gate} />,
    form: (
      <>
        <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus />
        <TextInput
          label="Source address"
          description="The address whose messages it takes"
          required
          value={address}
          onChange={(e) => setAddress(e.currentTarget.value)}
        />
        <TextInput
          label="Forwarding address"
          description="Where it sends them"
          required
          value={forwardingAddress}
          onChange={(e) => setForwardingAddress(e.currentTarget.value)}
        />
        <Checkbox
          label="Exclusive"
          description="The message goes only to the forwarding address; otherwise a copy goes there and the original stays"
          checked={exclusive}
          onChange={(e) => setExclusive(e.currentTarget.checked)}
        />
        <Textarea
          label="Filter"
          description="A JMS selector, e.g. region = 'EU'; empty: every message"
          autosize
          minRows={1}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
        />
        <Select
          label="Routing type of what it forwards"
          data={ROUTING_TYPES.map((type) => ({ ...type }))}
          value={routingType}
          allowDeselect={false}
          onChange={(value) => isRoutingType(value) && setRoutingType(value)}
        />
      </>
    ),
    parameters: JSON.stringify(divert),
    ready: divert.name !== '' && divert.address !== '' && divert.forwardingAddress !== '',
    applyLabel: (preview) => `Create on ${wouldAct(preview)}`,
    summary: (preview) =>
      `${divert.name} (${divert.address} → ${divert.forwardingAddress}${exclusive ? ', exclusive' : ''}) would be created on ${wouldAct(preview)}${leftAlone(preview, 'already has it')}.`,
    done: (result) => `${divert.name} created on ${didAct(result)}`,
    run: async (flags) => {
      const result = await create.mutateAsync({ clusterId, ...divert, dryRun: flags.dryRun });
      if (!flags.dryRun) await queryClient.invalidateQueries({ queryKey: trpc.routing.pathKey() });
      return result;
    },
    auditTarget: divert.name,
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}
