'use client';
// A channel row's actions: Send test sends one notification now and shows the answer under the buttons; Edit opens
// the channel dialog; Delete is held.
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { HoldToConfirm } from '@/ui/parts/hold-to-confirm.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { WriteGate, type WriteAccess } from './alerting-parts.tsx';
import { ChannelDialog } from './channel-dialog.tsx';
import type { ChannelRow } from './channel-row.ts';
import { useRefreshChannels } from './use-refresh-channels.ts';

type TestOutcome = RouterOutputs['alerting']['testChannel'];

function TestResult({ outcome }: { outcome: TestOutcome }) {
  return (
    <Text
      size="xs"
      c={outcome.delivered ? 'teal' : 'red'}
      data-testid="test-outcome"
      data-delivered={String(outcome.delivered)}
    >
      {outcome.delivered ? 'Delivered' : 'Failed'}: {outcome.response ?? 'no answer'}
    </Text>
  );
}

export function ChannelActions({ channel, access }: { channel: ChannelRow; access: WriteAccess }) {
  const trpc = useTRPC();
  const refresh = useRefreshChannels();
  const [dialog, setDialog] = useState<'edit' | 'delete' | undefined>(undefined);
  // The test is logged as a delivery: the list rereads it as the channel's last delivery.
  const test = useMutation(trpc.alerting.testChannel.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.alerting.deleteChannel.mutationOptions({ onSuccess: refresh }));
  return (
    <Stack gap={4}>
      <Group gap={4} wrap="nowrap">
        <WriteGate access={access}>
          <Button
            size="compact-xs"
            variant="light"
            disabled={!access.allowed}
            loading={test.isPending}
            onClick={() => test.mutate({ id: channel.id })}
          >
            Send test
          </Button>
        </WriteGate>
        <WriteGate access={access}>
          <Button
            size="compact-xs"
            variant="light"
            color="gray"
            disabled={!access.allowed}
            onClick={() => setDialog('edit')}
          >
            Edit
          </Button>
        </WriteGate>
        <WriteGate access={access}>
          <Button
            size="compact-xs"
            variant="light"
            color="red"
            disabled={!access.allowed}
            onClick={() => setDialog('delete')}
          >
            Delete
          </Button>
        </WriteGate>
      </Group>
      {test.data && <TestResult outcome={test.data} />}
      {test.error && <ProblemView error={test.error} />}
      {dialog === 'edit' && <ChannelDialog channel={channel} onClose={() => setDialog(undefined)} />}
      {dialog === 'delete' && (
        <Modal
          opened
          onClose={() => setDialog(undefined)}
          title={`Delete ${channel.name}`}
          data-testid="delete-channel"
        >
          <Stack gap="sm">
            <Text size="sm">Rules stop naming it; its delivery log goes with it.</Text>
            {remove.error && <ProblemView error={remove.error} />}
            <HoldToConfirm
              action="Delete"
              count={1}
              noun={['channel', 'channels']}
              onConfirm={() => remove.mutate({ id: channel.id }, { onSuccess: () => setDialog(undefined) })}
            />
          </Stack>
        </Modal>
      )}
    </Stack>
  );
}
