'use client';
// Alerts → Channels: where alerts are sent. The list shows each channel's kind and only the origin of its target
// (the rest is sealed). New channel and Edit draw the configuration form of each kind the API offers (webhook,
// Slack, and any kind added there), preview it with the API's dry run, then save it; a saved configuration cannot
// be read back, so Edit replaces it only when asked. Send test sends one notification now and shows the answer.
// Delete is held.
import { Alert, Badge, Button, Group, Modal, SegmentedControl, Stack, Switch, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { HoldToConfirm } from '@/ui/parts/hold-to-confirm.tsx';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import type { Column } from '@/ui/table/column.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useListState } from '@/ui/table/list-state.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { AlertingTabs, DataAge, Toolbar, useAlertWrite, WriteGate, type WriteAccess } from './alerting-parts.tsx';
import { defaultsOf, missingOf, type FormValues, type JsonSchema } from './schema-fields.ts';
import { SchemaForm } from './schema-form.tsx';

type ChannelRow = RouterOutputs['alerting']['listChannels']['items'][number];
type TestOutcome = RouterOutputs['alerting']['testChannel'];

function useRefreshChannels() {
  const queryClient = useQueryClient();
  const trpc = useTRPC();
  return () => void queryClient.invalidateQueries({ queryKey: trpc.alerting.listChannels.queryKey() });
}

/** New (no channel) or Edit: name, kind and the kind's configuration; previewed by a dry run, then saved. */
function ChannelDialog({ channel, onClose }: { channel: ChannelRow | undefined; onClose: () => void }) {
  const trpc = useTRPC();
  const refresh = useRefreshChannels();
  const kinds = useQuery(trpc.alerting.channelKinds.queryOptions({}));
  const [name, setName] = useState(channel?.name ?? '');
  const [kind, setKind] = useState<string | undefined>(channel?.kind);
  const [replaceConfig, setReplaceConfig] = useState(!channel);
  const [values, setValues] = useState<FormValues>({});
  const chosen = kinds.data?.items.find((item) => item.kind === (kind ?? kinds.data.items[0]?.kind));
  const schema = chosen?.config as JsonSchema | undefined;
  const missing = [...(name.trim() ? [] : ['Name']), ...(replaceConfig ? missingOf(schema, values) : [])];
  const config = replaceConfig && chosen ? { ...values, kind: chosen.kind } : undefined;
  const create = useMutation(trpc.alerting.createChannel.mutationOptions());
  const update = useMutation(trpc.alerting.updateChannel.mutationOptions());
  const [preview, setPreview] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const run = async (dryRun: boolean) => {
    const body = { name: name.trim(), dryRun, ...(config ? { config } : {}) } as Parameters<
      typeof create.mutateAsync
    >[0];
    const answer = channel ? await update.mutateAsync({ ...body, id: channel.id }) : await create.mutateAsync(body);
    if (dryRun) setPreview(`Dry run: “${answer.name}” would send to ${answer.target} (${answer.kind}).`);
    else {
      refresh();
      setSaved(true);
    }
  };
  const error = create.error ?? update.error;
  const busy = create.isPending || update.isPending;
  return (
    <Modal
      opened
      onClose={onClose}
      title={channel ? `Edit ${channel.name}` : 'New channel'}
      size="lg"
      data-testid="channel-dialog"
    >
      <Stack gap="sm">
        <TextInput
          label="Name"
          required
          value={name}
          onChange={(event) => {
            setName(event.currentTarget.value);
            setPreview(undefined);
          }}
        />
        {channel && (
          <Switch
            label={`Replace the configuration (now sending to ${channel.target})`}
            checked={replaceConfig}
            onChange={(event) => {
              setReplaceConfig(event.currentTarget.checked);
              setPreview(undefined);
            }}
          />
        )}
        {replaceConfig && (
          <>
            <SegmentedControl
              aria-label="Kind"
              value={chosen?.kind ?? ''}
              data={(kinds.data?.items ?? []).map((item) => item.kind)}
              onChange={(next) => {
                setKind(next);
                setValues(defaultsOf(kinds.data?.items.find((item) => item.kind === next)?.config));
                setPreview(undefined);
              }}
            />
            <SchemaForm
              schema={schema}
              values={values}
              onChange={(next) => {
                setValues(next);
                setPreview(undefined);
              }}
            />
          </>
        )}
        {missing.length > 0 && (
          <Text size="xs" c="dimmed">
            Still needed: {missing.join(', ')}.
          </Text>
        )}
        {preview && !saved && (
          <Alert variant="light" color="blue" data-testid="channel-preview">
            {preview}
          </Alert>
        )}
        {error && <ProblemView error={error} />}
        {saved ? (
          <>
            <Alert variant="light" color="teal" data-testid="channel-saved">
              Saved.
            </Alert>
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Close
              </Button>
            </Group>
          </>
        ) : (
          <Group>
            <Button
              variant="default"
              disabled={missing.length > 0}
              loading={busy}
              onClick={() => void run(true).catch(() => undefined)}
            >
              Preview
            </Button>
            <Button disabled={missing.length > 0} loading={busy} onClick={() => void run(false).catch(() => undefined)}>
              {channel ? 'Save' : 'Create channel'}
            </Button>
          </Group>
        )}
      </Stack>
    </Modal>
  );
}

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

function ChannelActions({ channel, access }: { channel: ChannelRow; access: WriteAccess }) {
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

const DELIVERY_POLL_MS = 10_000;
const DELIVERY_COLOR: Record<string, string> = { delivered: 'teal', failed: 'red', pending: 'gray' };

/** A channel's newest delivery: its outcome, when, and the answer (a failing channel reads as such at a glance). */
function LastDelivery({ row }: { row: ChannelRow }) {
  const last = row.lastDelivery;
  if (!last)
    return (
      <Text size="xs" c="dimmed">
        never sent
      </Text>
    );
  return (
    <Stack
      gap={2}
      data-testid="last-delivery"
      data-status={last.status}
      title={`${last.event}: ${last.response ?? ''}`}
    >
      <Group gap={6} wrap="nowrap">
        <Badge size="sm" variant="light" color={DELIVERY_COLOR[last.status] ?? 'gray'}>
          {last.status}
        </Badge>
        <Text size="xs" c="dimmed" truncate maw={90}>
          {last.response ?? ''}
        </Text>
      </Group>
      <TimeAgo iso={last.at} inline />
    </Stack>
  );
}

export function ChannelsScreen() {
  const trpc = useTRPC();
  const access = useAlertWrite();
  const list = useListState({ sort: 'name' });
  const [creating, setCreating] = useState(false);
  const live = useLive(['alerts']);
  const channels = useQuery({
    ...trpc.alerting.listChannels.queryOptions({
      sort: list.state.sort,
      page: list.state.page,
      pageSize: list.state.pageSize,
      ...(list.state.q ? { q: list.state.q } : {}),
    }),
    ...live,
    // Delivery attempts send no signal: the last delivery is reread every few seconds whatever the stream does.
    refetchInterval:
      live.refetchInterval === false ? DELIVERY_POLL_MS : Math.min(live.refetchInterval, DELIVERY_POLL_MS),
    placeholderData: keepPreviousData,
  });
  const columns: readonly Column<ChannelRow>[] = [
    { id: 'name', header: 'Name', sortField: 'name', cell: (row) => row.name },
    { id: 'kind', header: 'Kind', width: 100, sortField: 'kind', cell: (row) => row.kind },
    { id: 'target', header: 'Sends to', cell: (row) => row.target },
    { id: 'lastDelivery', header: 'Last delivery', width: 180, cell: (row) => <LastDelivery row={row} /> },
    {
      id: 'createdAt',
      header: 'Created',
      width: 120,
      sortField: 'createdAt',
      cell: (row) => <TimeAgo iso={row.createdAt} />,
    },
    { id: 'actions', header: 'Actions', width: 260, cell: (row) => <ChannelActions channel={row} access={access} /> },
  ];
  return (
    <>
      <PageHeader
        title="Notification channels"
        description="Where alerts are sent: signed webhooks, Slack-compatible webhooks and the other kinds the API offers. Their targets and secrets are sealed."
        actions={
          <WriteGate access={access}>
            <Button disabled={!access.allowed} onClick={() => setCreating(true)}>
              New channel
            </Button>
          </WriteGate>
        }
      />
      <AlertingTabs />
      <Toolbar>
        <DataAge updatedAt={channels.dataUpdatedAt} alsoEvery="every 10 seconds for deliveries" />
      </Toolbar>
      <DataTable
        tableId="alert-channels"
        label="Notification channels"
        columns={columns}
        rowKey={(row) => row.id}
        rowAttributes={(row) => ({ 'data-channel': row.name, 'data-kind': row.kind })}
        list={list}
        query={channels}
        searchPlaceholder="Search channels"
        empty={{ title: 'No channels', description: 'A rule without channels fires and resolves here only.' }}
      />
      {creating && <ChannelDialog channel={undefined} onClose={() => setCreating(false)} />}
    </>
  );
}
