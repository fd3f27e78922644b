'use client';
// What the message browser says above the page: that values are shown in clear (audited) or why they were not,
// which channel served the page and how old it is, and the broker.xml that lifts the management size limit when
// the broker cut something.
import { Alert, Badge, Button, Code, Collapse, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { useState } from 'react';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import { useStreamStatus } from '@/ui/stream/stream-context.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';

type BrowseAnswer = RouterOutputs['messages']['browse'];

function ClearBanner() {
  return (
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
  );
}

function ClearRefused({ reason, onClose }: { reason: string; onClose: () => void }) {
  return (
    <Alert
      color="red"
      variant="light"
      title="Not shown in clear"
      withCloseButton
      onClose={onClose}
      data-testid="clear-refused"
    >
      <Text size="sm">{reason} The page is read masked again.</Text>
    </Alert>
  );
}

/** Which channel served the page, from which node, how long ago, and how it is kept fresh. */
function PageSource({ answer, failed }: { answer: BrowseAnswer | undefined; failed: boolean }) {
  const streaming = useStreamStatus()?.status.state === 'connected';
  return (
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
        ) : failed ? (
          'The brokers did not answer the browse.'
        ) : (
          'Reading from the broker…'
        )}
      </Text>
    </Group>
  );
}

/** Shown when the management channel cut bodies or properties; stays mounted so "shown" survives a re-read. */
function RaiseLimit({ answer }: { answer: BrowseAnswer | undefined }) {
  const [snippetShown, setSnippetShown] = useState(false);
  if (!answer?.raiseLimitSnippet) return null;
  return (
    <Alert color="orange" variant="light" title="The broker cut some messages" data-testid="raise-limit">
      <Stack gap="xs">
        <Text size="sm">
          The management channel gives at most{' '}
          {answer.attributeSizeLimit === null ? 'a limited size' : `${answer.attributeSizeLimit} bytes`} of each body
          and property; rows marked “truncated” were cut. Raising the broker’s limit lifts it.
        </Text>
        <Group>
          <Button size="compact-sm" variant="light" color="orange" onClick={() => setSnippetShown((shown) => !shown)}>
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
  );
}

export function BrowseNotices({
  answer,
  failed,
  clear,
  clearRefused,
  onDismissRefusal,
}: {
  answer: BrowseAnswer | undefined;
  /** The last browse failed. */
  failed: boolean;
  clear: boolean;
  clearRefused: string | undefined;
  onDismissRefusal: () => void;
}) {
  return (
    <Stack gap="xs" mb="sm">
      {clear && <ClearBanner />}
      {clearRefused && <ClearRefused reason={clearRefused} onClose={onDismissRefusal} />}
      <PageSource answer={answer} failed={failed} />
      <RaiseLimit answer={answer} />
    </Stack>
  );
}
