'use client';
// Create an address: a name and its routing types, created on every logical node of the cluster through the
// operation dialog (dry run per node, confirmation, outcome, audit).
import { Anchor, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { CapabilityNote, type CapabilityGate } from '@/modules/platform/clusters/ui.ts';
import { OperationDialog, type OperationSpec } from '@/modules/platform/commands/ui.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { acting, nodesWord, routingTypesOf } from './command-words.ts';
import { addressPath } from './resource-paths.ts';
import { useRefreshResources } from './use-refresh-resources.ts';

export function CreateAddressDialog({
  clusterId,
  gate,
  onClose,
}: {
  clusterId: string;
  gate: CapabilityGate;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const refresh = useRefreshResources();
  const create = useMutation(trpc.resources.createAddress.mutationOptions());
  const [name, setName] = useState('');
  const [anycast, setAnycast] = useState(true);
  const [multicast, setMulticast] = useState(false);
  const routingTypes = routingTypesOf(anycast, multicast);
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
