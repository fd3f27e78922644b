'use client';
// The message browser of one queue: one node's copy (picked from the nodes holding the queue), a page at a time,
// optionally through a JMS selector; node, selector, page and page size in the URL (use-message-browse.ts). It says
// which channel served the page and how old it is (browse-notices.tsx), and opens a message in a drawer, with what
// can be done to it (message-actions.tsx). "Show in clear" asks for the values the content policy would mask
// (message:clear, audited; a refusal says why and turns it off: use-browse-params.ts). Live on the `queues` topic.
// "Send message" opens the send form. The cluster's capability ledger gates the writes.
import { Anchor, Button, Select, Switch } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { GateIcon, GateTooltip, useCapabilityGate, writesOffOf } from '@/modules/platform/clusters/ui.ts';
import { PageHeader } from '@/ui/parts/page-header.tsx';
import { DataTable } from '@/ui/table/data-table.tsx';
import { BrowseNotices } from './browse-notices.tsx';
import { MessageActions } from './message-actions.tsx';
import { messageColumns, type MessageRow } from './message-columns.tsx';
import { MessageDrawer } from './message-details.tsx';
import { EVERY_MESSAGE, nodeOptions } from './message-page.ts';
import { queuePagePath } from './message-paths.ts';
import { SelectorInput } from './selector-input.tsx';
import { SendMessageDialog } from './send-message.tsx';
import { useBrowseParams } from './use-browse-params.ts';
import { useMessageBrowse } from './use-message-browse.ts';

export function MessagesScreen() {
  const { clusterId, queueName, list, nodeId, clear, selector, cluster, queue, browse, answer, shown, total } =
    useMessageBrowse();
  const { clearRefused, dismissRefusal, setNode, setClear } = useBrowseParams({ clear, browse });
  const writes = useCapabilityGate(clusterId);
  const sending = useCapabilityGate(clusterId, ['MESSAGE_IO']);
  const [opened, setOpened] = useState<MessageRow | undefined>();
  const [sendOpen, setSendOpen] = useState(false);
  const columns = useMemo(() => messageColumns(setOpened), [setOpened]);

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
      <BrowseNotices
        answer={answer}
        failed={browse.isError}
        clear={clear}
        clearRefused={clearRefused}
        onDismissRefusal={dismissRefusal}
      />
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
              data={nodeOptions(queue.data?.cells ?? [])}
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
