'use client';
// Add a subscription: an address tapped (CAPTURE) or one of its queues browsed (SAMPLE). A dry run first says what
// the reconciler or the sampler would do, and a preflight refusal with its broker.xml; only then is it added.
import { Autocomplete, Button, Group, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/ui/data/trpc.ts';
import { dryRunSentence } from './dry-run.ts';
import { SubscriptionFailure } from './refusal-snippet.tsx';

type Mode = 'CAPTURE' | 'SAMPLE';

function AddSubscriptionDialog({ clusterId, onClose }: { clusterId: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const names = useQuery({ ...trpc.sql.completions.queryOptions({ clusterId }), staleTime: 60_000 });
  const [address, setAddress] = useState('');
  const [mode, setMode] = useState<Mode>('CAPTURE');
  const [queue, setQueue] = useState('');
  const preview = useMutation(trpc.sql.subscriptions.create.mutationOptions());
  const create = useMutation({
    ...trpc.sql.subscriptions.create.mutationOptions(),
    onSuccess: () => queryClient.invalidateQueries(trpc.sql.subscriptions.pathFilter()),
  });
  const input = {
    clusterId,
    address: address.trim(),
    mode,
    ...(mode === 'SAMPLE' ? { queue: queue.trim() } : {}),
  };
  const ready = input.address !== '' && (mode === 'CAPTURE' || queue.trim() !== '');
  // A change of the form asks for a new preview.
  const previewed =
    preview.isSuccess && JSON.stringify(preview.variables) === JSON.stringify({ ...input, dryRun: true });
  const edit = (change: () => void) => {
    change();
    preview.reset();
  };
  return (
    <Modal opened onClose={onClose} title="Add a subscription" size="lg" data-testid="add-subscription">
      <Stack gap="sm">
        <fieldset disabled={create.isPending || create.isSuccess} style={{ border: 0, padding: 0, margin: 0 }}>
          <Stack gap="sm">
            <Autocomplete
              label="Address"
              required
              data={names.data?.addresses ?? []}
              value={address}
              onChange={(value) => edit(() => setAddress(value))}
              limit={50}
              data-autofocus
            />
            <SegmentedControl
              aria-label="Mode"
              data={[
                { value: 'CAPTURE', label: 'Capture (a tap on the address)' },
                { value: 'SAMPLE', label: 'Sample (browse one queue)' },
              ]}
              value={mode}
              onChange={(value) => edit(() => setMode(value))}
            />
            {mode === 'SAMPLE' && (
              <TextInput
                label="Queue"
                required
                description="The queue of this address that is browsed on every poll"
                value={queue}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  edit(() => setQueue(value));
                }}
              />
            )}
            <Text size="sm" c="dimmed">
              {mode === 'CAPTURE'
                ? 'A non-exclusive divert copies every message sent to the address into a ring queue of the service on each serving node; the worker drains it into the index, masked by the content policy.'
                : 'A poll browses the queue against a high-water mark; a message consumed between two polls is never seen.'}
            </Text>
          </Stack>
        </fieldset>
        {!create.isSuccess && (
          <Group>
            <Button
              variant={previewed ? 'default' : 'filled'}
              disabled={!ready}
              loading={preview.isPending}
              onClick={() => preview.mutate({ ...input, dryRun: true })}
            >
              {previewed ? 'Preview again' : 'Preview (dry run)'}
            </Button>
            {previewed && (
              <Button loading={create.isPending} onClick={() => create.mutate({ ...input, dryRun: false })}>
                Add {mode === 'CAPTURE' ? 'capture' : 'sampling'}
              </Button>
            )}
          </Group>
        )}
        {previewed && !create.isSuccess && (
          <Text size="sm" data-testid="subscription-preview">
            {dryRunSentence(preview.data.next)}
          </Text>
        )}
        {preview.isError && <SubscriptionFailure error={preview.error} />}
        {create.isError && <SubscriptionFailure error={create.error} />}
        {create.isSuccess && (
          <Stack gap="xs" data-testid="subscription-added">
            <Text size="sm">Added. {create.data.next}</Text>
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

export function AddSubscriptionButton({ clusterId }: { clusterId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button leftSection={<IconPlus size={16} />} onClick={() => setOpen(true)}>
        Add subscription
      </Button>
      {open && <AddSubscriptionDialog clusterId={clusterId} onClose={() => setOpen(false)} />}
    </>
  );
}
