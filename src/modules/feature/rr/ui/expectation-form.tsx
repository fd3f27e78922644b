'use client';
// Declare or change an address's expectation: the latency its replies should keep and the deadline past which a
// request without a reply is settled. A dry run first says what would be stored (and the version it would become);
// only then can it be saved. Audited on the server; a field the server refuses gets its message under the field.
import { Button, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { problemOf } from '@/ui/data/problem.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { dryRunSentence } from './dry-run.ts';
import { rrFlowPath } from './rr-paths.ts';

const FIELDS = ['address', 'replyAddress', 'expectedLatencyMs', 'deadlineMs'] as const;

interface ExpectationValues {
  readonly replyAddress: string | null;
  readonly expectedLatencyMs: number;
  readonly deadlineMs: number;
}

const numberOf = (value: string | number): number | undefined =>
  typeof value === 'number' ? value : value.trim() === '' ? undefined : Number(value);

export function ExpectationForm({
  clusterId,
  address: fixedAddress,
  initial,
  onClose,
}: {
  clusterId: string;
  /** The address's own screen: the address is fixed. */
  address?: string;
  /** Editing: the current values fill the form. */
  initial?: ExpectationValues;
  onClose?: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [address, setAddress] = useState(fixedAddress ?? '');
  const [replyAddress, setReplyAddress] = useState(initial?.replyAddress ?? '');
  const [expected, setExpected] = useState<string | number>(initial?.expectedLatencyMs ?? '');
  const [deadline, setDeadline] = useState<string | number>(initial?.deadlineMs ?? '');
  const preview = useMutation(trpc.rr.expectations.put.mutationOptions());
  const save = useMutation({
    ...trpc.rr.expectations.put.mutationOptions(),
    onSuccess: () => queryClient.invalidateQueries(trpc.rr.pathFilter()),
  });
  const expectedLatencyMs = numberOf(expected);
  const deadlineMs = numberOf(deadline);
  const ready = address.trim() !== '' && expectedLatencyMs !== undefined && deadlineMs !== undefined;
  const input = {
    clusterId,
    address: address.trim(),
    replyAddress: replyAddress.trim() === '' ? null : replyAddress.trim(),
    expectedLatencyMs: expectedLatencyMs ?? 0,
    deadlineMs: deadlineMs ?? 0,
  };
  // A change of the form asks for a new preview.
  const previewed =
    preview.isSuccess && JSON.stringify(preview.variables) === JSON.stringify({ ...input, dryRun: true });
  const edit = (change: () => void) => {
    change();
    preview.reset();
    save.reset();
  };
  const failed = save.error ?? preview.error;
  const errorOf = (field: string) =>
    failed ? problemOf(failed).errors?.find((entry) => entry.field === field)?.message : undefined;
  const named = failed ? (problemOf(failed).errors ?? []) : [];
  const shownInline = named.length > 0 && named.every((entry) => (FIELDS as readonly string[]).includes(entry.field));
  const again = () => {
    setAddress('');
    setReplyAddress('');
    setExpected('');
    setDeadline('');
    preview.reset();
    save.reset();
  };
  return (
    <Stack gap="sm" data-testid="expectation-form">
      <fieldset disabled={save.isPending || save.isSuccess} style={{ border: 0, padding: 0, margin: 0 }}>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label="Request address"
            required
            w={260}
            value={address}
            disabled={fixedAddress !== undefined}
            error={errorOf('address')}
            onChange={(event) => {
              const value = event.currentTarget.value;
              edit(() => setAddress(value));
            }}
          />
          <TextInput
            label="Reply address"
            description="The shared reply queue (optional)"
            w={260}
            value={replyAddress}
            error={errorOf('replyAddress')}
            onChange={(event) => {
              const value = event.currentTarget.value;
              edit(() => setReplyAddress(value));
            }}
          />
          <NumberInput
            label="Expected latency (ms)"
            required
            w={170}
            min={1}
            allowDecimal={false}
            value={expected}
            error={errorOf('expectedLatencyMs')}
            onChange={(value) => edit(() => setExpected(value))}
          />
          <NumberInput
            label="Deadline (ms)"
            description="No reply by then: settled"
            required
            w={170}
            min={1}
            allowDecimal={false}
            value={deadline}
            error={errorOf('deadlineMs')}
            onChange={(value) => edit(() => setDeadline(value))}
          />
        </Group>
      </fieldset>
      {!save.isSuccess && (
        <Group gap="xs">
          <Button
            variant={previewed ? 'default' : 'filled'}
            disabled={!ready}
            loading={preview.isPending}
            onClick={() => preview.mutate({ ...input, dryRun: true })}
          >
            {previewed ? 'Preview again' : 'Preview (dry run)'}
          </Button>
          {previewed && (
            <Button loading={save.isPending} onClick={() => save.mutate({ ...input, dryRun: false })}>
              {initial ? `Save version ${String(preview.data.version)}` : 'Declare expectation'}
            </Button>
          )}
          {onClose && (
            <Button variant="subtle" onClick={onClose}>
              Cancel
            </Button>
          )}
        </Group>
      )}
      {previewed && !save.isSuccess && (
        <Text size="sm" data-testid="expectation-preview">
          {dryRunSentence(
            preview.data.next,
            `Saving would store version ${String(preview.data.version)} of the expectation of ${preview.data.address}.`,
          )}
        </Text>
      )}
      {failed && !shownInline && <ProblemView error={failed} />}
      {save.isSuccess && (
        <Group gap="sm" data-testid="expectation-saved">
          <Text size="sm">
            Stored version {save.data.version} for {save.data.address}. {save.data.next}
          </Text>
          {fixedAddress !== undefined ? (
            onClose && (
              <Button size="xs" variant="default" onClick={onClose}>
                Close
              </Button>
            )
          ) : (
            <>
              <Button size="xs" variant="light" component={Link} href={rrFlowPath(clusterId, save.data.address)}>
                Open the flow
              </Button>
              <Button size="xs" variant="subtle" onClick={again}>
                Declare another
              </Button>
            </>
          )}
        </Group>
      )}
    </Stack>
  );
}
