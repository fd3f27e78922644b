'use client';
// A node's URLs given in place, from the overview: offered on a node discovery could not confirm (and on any node
// through its "Edit URLs" button). Check probes without saving (dry run); Save is offered for the URLs as checked;
// a refusal names what is wrong. Remove takes a node out of the cluster (not its last one).
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { HoldToConfirm } from '@/ui/parts/hold-to-confirm.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import type { NodeRow } from './topology-view.tsx';

interface Draft {
  readonly managementUrl: string;
  readonly amqpUrl: string;
}

function NodeEditForm({ clusterId, node, onDone }: { clusterId: string; node: NodeRow; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>({ managementUrl: node.managementUrl, amqpUrl: node.amqpUrl ?? '' });
  const [checked, setChecked] = useState<string | undefined>();
  const finish = async () => {
    await queryClient.invalidateQueries(trpc.clusters.pathFilter());
    onDone();
  };
  const update = useMutation(trpc.clusters.updateNode.mutationOptions());
  const remove = useMutation(trpc.clusters.removeNode.mutationOptions({ onSuccess: finish }));
  const input = (dryRun: boolean) => ({
    clusterId,
    nodeId: node.id,
    managementUrl: draft.managementUrl.trim(),
    // Empty: found again from the cluster's topology.
    amqpUrl: draft.amqpUrl.trim() === '' ? null : draft.amqpUrl.trim(),
    dryRun,
  });
  const check = () =>
    update.mutate(input(true), {
      onSuccess: () => setChecked(JSON.stringify(draft)),
      onError: () => setChecked(undefined),
    });
  const save = () => {
    update.mutate(input(false), { onSuccess: () => void finish() });
  };
  const set = (field: keyof Draft) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value;
    setDraft((current) => ({ ...current, [field]: value }));
  };
  const canSave = checked === JSON.stringify(draft) && !update.isPending;
  return (
    <Stack
      gap="sm"
      component="form"
      aria-label="Node URLs"
      onSubmit={(event) => {
        event.preventDefault();
        check();
      }}
    >
      {node.urlSource === 'not-confirmed' && (
        <Alert color="yellow" variant="light" data-testid="not-confirmed-note">
          Discovery found this node in the cluster&apos;s topology but no management URL it tried answered as it. Give
          the URL its web console serves Jolokia on; it is probed with the cluster&apos;s credentials before it is
          saved.
        </Alert>
      )}
      <TextInput
        label="Management URL"
        description="e.g. http://host:8161/console/jolokia"
        required
        value={draft.managementUrl}
        onChange={set('managementUrl')}
      />
      <TextInput
        label="AMQP URL"
        description="Leave empty to take it from the cluster's topology"
        value={draft.amqpUrl}
        onChange={set('amqpUrl')}
      />
      {update.isError && <ProblemView error={update.error} />}
      {update.data?.dryRun && canSave && (
        <Alert color="teal" variant="light" data-testid="node-check-ok">
          <Text size="sm">
            Answers as {update.data.node.brokerName ?? 'a broker'} ({update.data.node.role.toLowerCase()}), AMQP{' '}
            {update.data.node.amqpUrl ?? 'unknown'}.
          </Text>
        </Alert>
      )}
      <Group justify="space-between">
        <Group gap="xs">
          <Button type="submit" variant="default" loading={update.isPending && !canSave}>
            Check
          </Button>
          <Button onClick={save} disabled={!canSave}>
            Save node
          </Button>
        </Group>
        <HoldToConfirm
          action="Remove"
          count={1}
          noun={['node', 'nodes']}
          disabled={remove.isPending}
          onConfirm={() => remove.mutate({ clusterId, nodeId: node.id })}
        />
      </Group>
      {remove.isError && <ProblemView error={remove.error} />}
    </Stack>
  );
}

export function NodeEditAction({ clusterId, node }: { clusterId: string; node: NodeRow }) {
  const [open, setOpen] = useState(false);
  const unconfirmed = node.urlSource === 'not-confirmed';
  return (
    <>
      <Button
        size="compact-xs"
        variant={unconfirmed ? 'light' : 'subtle'}
        color={unconfirmed ? 'yellow' : undefined}
        onClick={() => setOpen(true)}
        data-testid="node-edit"
      >
        {unconfirmed ? 'Give URLs' : 'Edit URLs'}
      </Button>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={`Node ${node.brokerName ?? node.managementUrl}`}
        size="lg"
      >
        {open && <NodeEditForm clusterId={clusterId} node={node} onDone={() => setOpen(false)} />}
      </Modal>
    </>
  );
}
