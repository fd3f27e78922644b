'use client';
// The message browser of one queue: one node's copy (picked from the nodes holding the queue), a page at a time,
// optionally through a JMS selector; node, selector, page and page size in the URL. It says which channel served
// the page (native: whole messages; management: for a selector or when the native one is not there, with why) and
// how old the page is, offers the broker.xml that lifts the management size limit when the broker cut something,
// and opens a message in a drawer, with what can be done to it (message-actions.tsx). "Show in clear" asks for the
// values the content policy would mask (message:clear, audited; a refusal says why and turns it off). Live on the
// `queues` topic. "Send message" opens the send form. The cluster's capability ledger gates the writes.
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Collapse,
  Group,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconEye, IconSend } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useParams, usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useMemo, useState } from 'react';
import { decodeSegment } from '@/base/path-segment.ts';
import { GateIcon, GateTooltip, useCapabilityGate, writesOffOf } from '@/modules/platform/clusters/ui.ts';
import { problemOf } from '@/ui/data/problem.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { useStreamStatus } from '@/ui/stream/stream-context.ts';
import { useLive } from '@/ui/stream/live-query.ts';
import { DataTable } from '@/ui/table/data-table.tsx';
import { useListState } from '@/ui/table/list-state.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';
import { bytesOf, textOf } from './body-format.ts';
import { MessageActions } from './message-actions.tsx';
import { messageColumns, type MessageRow } from './message-columns.tsx';
import { MessageDrawer } from './message-details.tsx';
import { queuePagePath } from './message-paths.ts';
import { SendMessageDialog } from './send-message.tsx';

const FILTERS = ['selector'] as const;

/** A selector every message matches: a page read through it comes over the management channel, with broker ids. */
const EVERY_MESSAGE = 'TRUE';

/** A JMS selector, applied on Enter or with the button (a half-typed selector is not sent to the brokers). */
function SelectorInput({ value, onApply }: { value: string; onApply: (selector: string) => void }) {
  const [text, setText] = useState(value);
  const [applied, setApplied] = useState(value);
  // The URL changed under us (back, reset): show what it says.
  if (value !== applied) {
    setApplied(value);
    setText(value);
  }
  const apply = () => onApply(text.trim());
  return (
    <Group gap="xs" align="flex-end">
      <TextInput
        label="Selector"
        placeholder="e.g. priority > 4 AND region = 'eu'"
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') apply();
        }}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        w={360}
      />
      <Button variant="default" onClick={apply} disabled={text.trim() === value}>
        Apply
      </Button>
    </Group>
  );
}

/** The text a search of the page looks through: the id, the properties and a text body. */
function searchText(row: MessageRow): string {
  const body = row.body.base64 && row.body.kind !== 'binary' ? textOf(bytesOf(row.body.base64)) : '';
  return [row.messageId, JSON.stringify(row.properties), body].join(' ').toLowerCase();
}

export function MessagesScreen() {
  const params = useParams<{ clusterId: string; queueName: string }>();
  const { clusterId } = params;
  const queueName = decodeSegment(params.queueName);
  const trpc = useTRPC();
  const search = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const list = useListState<(typeof FILTERS)[number]>({ sort: 'position', pageSize: 25, filters: FILTERS });
  const live = useLive(['queues']);
  const streaming = useStreamStatus()?.status.state === 'connected';
  const nodeId = search.get('node') ?? undefined;
  const clear = search.get('clear') === 'true';
  const selector = list.state.filters.selector ?? '';
  const { page, pageSize } = list.state;

  const cluster = useQuery(trpc.clusters.get.queryOptions({ clusterId }));
  const queue = useQuery({ ...trpc.queues.get.queryOptions({ clusterId, queueName }), ...live });
  const browse = useQuery({
    ...trpc.messages.browse.queryOptions({
      clusterId,
      queue: queueName,
      page,
      pageSize,
      ...(nodeId ? { nodeId } : {}),
      ...(selector ? { filter: selector } : {}),
      ...(clear ? { clear: 'true' as const } : {}),
    }),
    ...live,
    placeholderData: keepPreviousData,
  });
  const writes = useCapabilityGate(clusterId);
  const sending = useCapabilityGate(clusterId, ['MESSAGE_IO']);
  const [opened, setOpened] = useState<MessageRow | undefined>();
  const [sendOpen, setSendOpen] = useState(false);
  // Why showing values in clear was refused (the 403's detail), kept after the switch turned itself off.
  const [clearRefused, setClearRefused] = useState<string | undefined>();
  const [snippetShown, setSnippetShown] = useState(false);
  const columns = useMemo(() => messageColumns(setOpened), [setOpened]);

  const answer = browse.data;
  const offset = (page - 1) * pageSize;
  const rows = useMemo(
    () =>
      (answer?.messages ?? []).map((message, index): MessageRow => ({
        ...message,
        key: `${offset + index}:${message.messageId}`,
      })),
    [answer, offset],
  );
  const needle = list.state.q.trim().toLowerCase();
  const shown = needle ? rows.filter((row) => searchText(row).includes(needle)) : rows;
  const cell = queue.data?.cells.find((candidate) => candidate.nodeId === (nodeId ?? answer?.nodeId));
  // The broker gives no total with a page: past the last page it is exact, before it the node's count from the
  // scrape (without a selector) or one more than what was read says there is more.
  const read = offset + rows.length;
  const total = !answer
    ? undefined
    : needle
      ? shown.length
      : !answer.hasMore
        ? read
        : Math.max(read + 1, selector ? 0 : (cell?.messageCount ?? 0));

  const setParam = (name: string, next: string | null | undefined, mode: 'push' | 'replace' = 'push') => {
    const query = new URLSearchParams(search.toString());
    if (next) query.set(name, next);
    else query.delete(name);
    if (name === 'node') query.delete('page');
    const text = query.toString();
    const target = text ? `${pathname}?${text}` : pathname;
    if (mode === 'push') router.push(target, { scroll: false });
    else router.replace(target, { scroll: false });
  };
  const setNode = (next: string | null) => setParam('node', next);
  const setClear = (on: boolean) => {
    setClearRefused(undefined);
    setParam('clear', on ? 'true' : undefined);
  };
  // Refused (no message:clear on this cluster): say why (kept while the switch is off again), and read masked again.
  const refusal = clear && browse.isError ? problemOf(browse.error) : undefined;
  const refusedNow = refusal?.status === 403 ? (refusal.detail ?? refusal.title) : undefined;
  if (refusedNow && refusedNow !== clearRefused) setClearRefused(refusedNow);
  useEffect(() => {
    if (refusedNow) setParam('clear', undefined, 'replace');
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per refusal; setParam reads the current URL
  }, [refusedNow]);
  const nodeOptions = (queue.data?.cells ?? []).map((candidate) => ({
    value: candidate.nodeId,
    label: `${candidate.brokerName ?? candidate.nodeId}${candidate.serving ? '' : ' (not serving)'}`,
  }));

  return (
    <>
      <PageHeader
        title={`Messages of ${queueName}`}
        cluster={cluster.data?.name}
        crumbs={[
          { label: 'Clusters', href: '/clusters' },
          { label: cluster.data?.name ?? 'Cluster', href: `/clusters/${clusterId}` },
          { label: 'Queues', href: `/clusters/${clusterId}/queues` },
          { label: queueName, href: queuePagePath(clusterId, queueName) },
        ]}
        description="One node’s copy of the queue, a page at a time, through the content policy: what is sensitive is masked, and marked."
        actions={
          <>
            <GateTooltip gate={sending}>
              <Button
                leftSection={<IconSend size={16} />}
                rightSection={<GateIcon gate={sending} />}
                onClick={() => setSendOpen(true)}
                disabled={!queue.data || sending.disabled}
              >
                Send message
              </Button>
            </GateTooltip>
            <Anchor component={Link} href={queuePagePath(clusterId, queueName)} size="sm">
              The queue
            </Anchor>
          </>
        }
      />
      <Stack gap="xs" mb="sm">
        {clear && (
          <Alert
            color="grape"
            variant="light"
            icon={<IconEye size={18} />}
            title="Values shown in clear"
            data-testid="clear-banner"
          >
            <Text size="sm">
              What the content policy would mask is shown as the brokers hold it (credentials stay masked). This view is
              audited: each read writes a VIEW_CLEAR row under your name.
            </Text>
          </Alert>
        )}
        {clearRefused && (
          <Alert
            color="red"
            variant="light"
            title="Not shown in clear"
            withCloseButton
            onClose={() => setClearRefused(undefined)}
            data-testid="clear-refused"
          >
            <Text size="sm">{clearRefused} The page is read masked again.</Text>
          </Alert>
        )}
        <Group gap="xs" data-testid="messages-source">
          {answer && (
            <Tooltip
              label={answer.channelReason ?? 'Read natively over AMQP: whole bodies and typed properties'}
              multiline
              w={320}
            >
              <Badge
                color={answer.channel === 'native' ? 'teal' : 'orange'}
                variant="light"
                data-testid="channel-badge"
                data-channel={answer.channel}
              >
                {answer.channel}
              </Badge>
            </Tooltip>
          )}
          <Text size="sm" c="dimmed" data-testid="messages-age">
            {answer ? (
              <>
                Read from {answer.nodeName} <TimeAgo iso={answer.fetchedAt} inline />
                {answer.channelReason ? ` over the management channel: ${answer.channelReason}` : ''}
                {streaming ? '; refreshed when brokers report a change' : '; polling while the live stream is down'}
                {answer.hasMore ? '; there are more messages behind this page' : ''}.
              </>
            ) : browse.isError ? (
              'The brokers did not answer the browse.'
            ) : (
              'Reading from the broker…'
            )}
          </Text>
        </Group>
        {answer?.raiseLimitSnippet && (
          <Alert color="orange" variant="light" title="The broker cut some messages" data-testid="raise-limit">
            <Stack gap="xs">
              <Text size="sm">
                The management channel gives at most{' '}
                {answer.attributeSizeLimit === null ? 'a limited size' : `${answer.attributeSizeLimit} bytes`} of each
                body and property; rows marked “truncated” were cut. Raising the broker’s limit lifts it.
              </Text>
              <Group>
                <Button
                  size="compact-sm"
                  variant="light"
                  color="orange"
                  onClick={() => setSnippetShown((shown) => !shown)}
                >
                  {snippetShown ? 'Hide the broker.xml' : 'Show the broker.xml that raises it'}
                </Button>
              </Group>
              <Collapse expanded={snippetShown}>
                <Code block fz="xs">
                  {answer.raiseLimitSnippet}
                </Code>
              </Collapse>
            </Stack>
          </Alert>
        )}
      </Stack>
      <DataTable
        tableId="messages"
        label={`Messages of ${queueName}`}
        columns={columns}
        rowKey={(row) => row.key}
        rowAttributes={(row) => ({ 'data-message-id': row.messageId, 'data-body-kind': row.body.kind })}
        list={list}
        query={{
          data: answer && total !== undefined ? { items: shown, total } : undefined,
          error: browse.error,
          isPending: browse.isPending,
          isFetching: browse.isFetching,
          refetch: () => void browse.refetch(),
        }}
        searchPlaceholder="Search this page"
        filters={
          <>
            <Select
              label="Node"
              placeholder="First serving node"
              data={nodeOptions}
              value={nodeId ?? answer?.nodeId ?? null}
              onChange={setNode}
              allowDeselect={false}
              w={240}
            />
            <SelectorInput value={selector} onApply={(next) => list.setFilter('selector', next || undefined)} />
            <Switch
              label="Show in clear"
              description="Needs message:clear; audited"
              checked={clear}
              onChange={(event) => setClear(event.currentTarget.checked)}
              mb={4}
            />
          </>
        }
        empty={{
          title: 'No messages on this node',
          description: 'The queue is empty here; another node may hold messages of it.',
        }}
        rowMenu={{ kind: 'message', clusterId, writesOff: writesOffOf(writes) }}
        minWidth={900}
      />
      <MessageDrawer
        message={opened}
        onClose={() => setOpened(undefined)}
        actions={
          opened &&
          answer &&
          queue.data && (
            <MessageActions
              key={opened.key}
              origin={{
                clusterId,
                queueName,
                nodeId: answer.nodeId,
                nodeName: answer.nodeName,
                channel: answer.channel,
                deadLetter: queue.data.deadLetter,
              }}
              messageId={opened.messageId}
              gate={writes}
              onDone={() => setOpened(undefined)}
              onReadOverManagement={
                answer.channel === 'native' && !selector
                  ? () => {
                      setOpened(undefined);
                      list.setFilter('selector', EVERY_MESSAGE);
                    }
                  : undefined
              }
            />
          )
        }
      />
      {sendOpen && queue.data && (
        <SendMessageDialog
          clusterId={clusterId}
          address={queue.data.address}
          routingType={queue.data.routingType.toUpperCase() === 'MULTICAST' ? 'MULTICAST' : 'ANYCAST'}
          onClose={() => setSendOpen(false)}
        />
      )}
    </>
  );
}
