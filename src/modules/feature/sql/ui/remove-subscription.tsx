'use client';
// Remove a subscription: the dry run is asked as the dialog opens and says what the reconciler will take off the
// brokers; removing is held to confirm (the tap and its queue go from every node on the reconciler's next pass).
import { Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { HoldToConfirm } from '@/ui/parts/hold-to-confirm.tsx';
import { dryRunSentence } from './dry-run.ts';
import { SubscriptionFailure } from './refusal-snippet.tsx';

export interface RemovalTarget {
  readonly id: string;
  readonly address: string;
  readonly mode: string;
}

/**
 * Rendered by the screen, not by the row: the row is gone from the list once removed, and the outcome must stay shown.
 */
export function RemoveSubscriptionDialog({
  clusterId,
  target,
  onClose,
}: {
  clusterId: string;
  target: RemovalTarget;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const preview = useMutation(trpc.sql.subscriptions.remove.mutationOptions());
  const remove = useMutation({
    ...trpc.sql.subscriptions.remove.mutationOptions(),
    onSuccess: () => queryClient.invalidateQueries(trpc.sql.subscriptions.pathFilter()),
  });
  const { mutate } = preview;
  useEffect(() => {
    mutate({ clusterId, id: target.id, dryRun: true });
  }, [mutate, clusterId, target.id]);
  return (
    <Modal opened onClose={onClose} title={`Remove the ${target.mode.toLowerCase()} of ${target.address}`} size="lg">
      <Stack gap="sm" data-testid="remove-subscription">
        {preview.isPending && (
          <Group gap="xs">
            <Loader size="sm" />
            <Text size="sm">Asking what removal would do (a dry run: nothing changes)…</Text>
          </Group>
        )}
        {preview.isSuccess && !remove.isSuccess && (
          <Text size="sm" data-testid="subscription-preview">
            {dryRunSentence(preview.data.next)}
          </Text>
        )}
        {preview.isError && <SubscriptionFailure error={preview.error} />}
        {remove.isError && <SubscriptionFailure error={remove.error} />}
        {preview.isSuccess && !remove.isSuccess && (
          <Group justify="flex-end">
            <HoldToConfirm
              action="Remove"
              count={1}
              noun={['subscription', 'subscriptions']}
              disabled={remove.isPending}
              onConfirm={() => remove.mutate({ clusterId, id: target.id, dryRun: false })}
            />
          </Group>
        )}
        {remove.isSuccess && (
          <Stack gap="xs" data-testid="subscription-removed">
            <Text size="sm">Removed. {remove.data.next}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Close
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}
