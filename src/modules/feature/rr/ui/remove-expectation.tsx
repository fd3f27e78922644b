'use client';
// Remove an address's expectation: the dry run is asked as the dialog opens and says what removal would store (a
// removal is a version of its own in the history); removing is held to confirm. Its requests then take the default
// deadline (rr.default-deadline).
import { Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { HoldToConfirm } from '@/ui/parts/hold-to-confirm.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { dryRunSentence } from './dry-run.ts';

export function RemoveExpectationDialog({
  clusterId,
  address,
  onClose,
}: {
  clusterId: string;
  address: string;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const preview = useMutation(trpc.rr.expectations.remove.mutationOptions());
  const remove = useMutation({
    ...trpc.rr.expectations.remove.mutationOptions(),
    onSuccess: () => queryClient.invalidateQueries(trpc.rr.pathFilter()),
  });
  const { mutate } = preview;
  useEffect(() => {
    mutate({ clusterId, address, dryRun: true });
  }, [mutate, clusterId, address]);
  return (
    <Modal opened onClose={onClose} title={`Remove the expectation of ${address}`} size="lg">
      <Stack gap="sm" data-testid="remove-expectation">
        {preview.isPending && (
          <Group gap="xs">
            <Loader size="sm" />
            <Text size="sm">Asking what removal would do (a dry run: nothing changes)…</Text>
          </Group>
        )}
        {preview.isSuccess && !remove.isSuccess && (
          <Text size="sm" data-testid="expectation-preview">
            {dryRunSentence(
              preview.data.next,
              `Removing would store version ${String(preview.data.version)}, a removal (the history keeps every version).`,
            )}
          </Text>
        )}
        {preview.isError && <ProblemView error={preview.error} />}
        {remove.isError && <ProblemView error={remove.error} />}
        {preview.isSuccess && !remove.isSuccess && (
          <Group justify="flex-end">
            <HoldToConfirm
              action="Remove"
              count={1}
              noun={['expectation', 'expectations']}
              disabled={remove.isPending}
              onConfirm={() => remove.mutate({ clusterId, address, dryRun: false })}
            />
          </Group>
        )}
        {remove.isSuccess && (
          <Stack gap="xs" data-testid="expectation-removed">
            <Text size="sm">
              Removed (version {remove.data.version}). {remove.data.next}
            </Text>
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
