'use client';
// The cluster queues screen's "Create queue": name, address, routing type, filter, durability and a consumer limit,
// previewed on every node (a dry run), then created. Not destructive, so no hold. Gated by the cluster's writes.
import { Anchor, Button, Checkbox, Group, NumberInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import {
  CapabilityNote,
  GateIcon,
  GateTooltip,
  useCapabilityGate,
  type CapabilityGate,
} from '@/modules/platform/clusters/ui.ts';
import { OperationDialog, type OperationSpec } from '@/modules/platform/commands/ui.ts';
import { queuePath } from './queue-paths.ts';

type RoutingType = 'ANYCAST' | 'MULTICAST';

function CreateQueueDialog({
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
  const create = useMutation(trpc.queues.create.mutationOptions());
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const [routingType, setRoutingType] = useState<RoutingType>('ANYCAST');
  const [filter, setFilter] = useState('');
  const [durable, setDurable] = useState(true);
  const [maxConsumers, setMaxConsumers] = useState<number | string>('');
  const input = {
    clusterId,
    name: name.trim(),
    ...(address.trim() ? { address: address.trim() } : {}),
    routingType,
    ...(filter.trim() ? { filter: filter.trim() } : {}),
    durable,
    ...(typeof maxConsumers === 'number' ? { maxConsumers } : {}),
  };
  const spec: OperationSpec = {
    title: 'Create a queue',
    description: 'Creates the queue (and its address, when missing) on every logical node of the cluster.',
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
        <TextInput
          label="Address"
          placeholder={name.trim() || 'the queue’s name'}
          description="Empty: an address named like the queue"
          value={address}
          onChange={(event) => setAddress(event.currentTarget.value)}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Routing type
          </Text>
          <SegmentedControl
            aria-label="Routing type"
            data={[
              { value: 'ANYCAST', label: 'Anycast (point to point)' },
              { value: 'MULTICAST', label: 'Multicast (publish–subscribe)' },
            ]}
            value={routingType}
            onChange={(value) => setRoutingType(value)}
          />
        </Stack>
        <TextInput
          label="Filter (JMS selector)"
          description="Only messages matching it enter the queue; empty: every message sent to the address"
          value={filter}
          onChange={(event) => setFilter(event.currentTarget.value)}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        <Group align="flex-end">
          <NumberInput
            label="Max consumers"
            description="-1 or empty: no limit"
            min={-1}
            max={1_000_000}
            allowDecimal={false}
            value={maxConsumers}
            onChange={setMaxConsumers}
            w={200}
          />
          <Checkbox
            label="Durable (survives a broker restart)"
            checked={durable}
            onChange={(event) => setDurable(event.currentTarget.checked)}
            mb={8}
          />
        </Group>
      </>
    ),
    parameters: JSON.stringify(input),
    ready: input.name.length > 0,
    applyLabel: (preview) => {
      const nodes = preview.nodes.filter((node) => node.outcome === 'WOULD_APPLY').length;
      return `Create on ${nodes} ${nodes === 1 ? 'node' : 'nodes'}`;
    },
    summary: (preview) =>
      `${input.name} (${routingType.toLowerCase()} on ${input.address ?? input.name}) would be created on ${
        preview.nodes.filter((node) => node.outcome === 'WOULD_APPLY').length
      } nodes; a node that already has it says so.`,
    done: (result) => {
      const nodes = result.nodes.filter((node) => node.outcome === 'APPLIED').length;
      return `${input.name} created on ${nodes} ${nodes === 1 ? 'node' : 'nodes'}`;
    },
    run: async (flags) => {
      const result = await create.mutateAsync({ ...input, dryRun: flags.dryRun });
      if (!flags.dryRun) await queryClient.invalidateQueries(trpc.queues.pathFilter());
      return result;
    },
    auditTarget: input.name,
    afterwards: (
      <Anchor component={Link} href={queuePath(clusterId, input.name)} size="sm">
        Open {input.name} (listed after the next scrape)
      </Anchor>
    ),
  };
  return <OperationDialog spec={spec} onClose={onClose} />;
}

/** Disabled with the reason when the cluster's writes are unavailable; marked when they are not confirmed yet. */
export function CreateQueueButton({ clusterId }: { clusterId: string }) {
  const [open, setOpen] = useState(false);
  const gate = useCapabilityGate(clusterId);
  return (
    <>
      <GateTooltip gate={gate}>
        <Button
          leftSection={<IconPlus size={16} />}
          rightSection={<GateIcon gate={gate} />}
          disabled={gate.disabled}
          onClick={() => setOpen(true)}
        >
          Create queue
        </Button>
      </GateTooltip>
      {open && !gate.disabled && <CreateQueueDialog clusterId={clusterId} gate={gate} onClose={() => setOpen(false)} />}
    </>
  );
}
