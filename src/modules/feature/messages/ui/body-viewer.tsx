'use client';
// A message body as the content policy let it out: JSON and XML pretty-printed, text as it is, binary as a hex dump
// with offsets, a withheld body as the reason. Any body with bytes can be seen raw or as hex too.
import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  ScrollArea,
  SegmentedControl,
  Stack,
  Text,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import { bytesOf, formatBytes, hexDump, prettyJson, prettyXml, textOf } from './body-format.ts';

type MessageBody = RouterOutputs['messages']['browse']['messages'][number]['body'];

/** Beyond this the viewer shows the start and says so; the browser stays responsive. */
const SHOWN_CHARACTERS = 200_000;
const SHOWN_HEX_BYTES = 16 * 1024;

type View = 'formatted' | 'raw' | 'hex';

function rendered(body: MessageBody, bytes: Uint8Array, view: View): string {
  if (view === 'hex' || body.kind === 'binary') return hexDump(bytes, SHOWN_HEX_BYTES);
  const text = textOf(bytes);
  if (view === 'raw') return text;
  if (body.kind === 'json') return prettyJson(text);
  if (body.kind === 'xml') return prettyXml(text);
  return text;
}

export function BodyViewer({ body, truncated = false }: { body: MessageBody; truncated?: boolean }) {
  const [view, setView] = useState<View>('formatted');
  const bytes = useMemo(() => (body.base64 ? bytesOf(body.base64) : undefined), [body.base64]);
  const text = useMemo(
    () => (bytes && body.kind !== 'withheld' ? rendered(body, bytes, view) : ''),
    [body, bytes, view],
  );
  const facts = (
    <Group gap="xs">
      <Badge variant="light" size="sm" data-testid="body-kind">
        {body.kind}
      </Badge>
      <Text size="xs" c="dimmed">
        {formatBytes(body.sizeBytes)}
        {body.contentType ? ` · ${body.contentType}` : ''}
      </Text>
      {truncated && (
        <Badge color="orange" variant="light" size="sm">
          cut by the broker
        </Badge>
      )}
    </Group>
  );
  if (body.kind === 'empty')
    return (
      <Stack gap="xs" data-testid="body-viewer">
        {facts}
        <Text size="sm" c="dimmed">
          The message has no body.
        </Text>
      </Stack>
    );
  if (!bytes)
    return (
      <Stack gap="xs" data-testid="body-viewer">
        {facts}
        <Alert color="gray" variant="light" title="Body withheld" data-testid="body-withheld">
          {body.withheldReason ?? 'The content policy withheld the body.'}
        </Alert>
      </Stack>
    );
  const binary = body.kind === 'binary';
  const cutHex = (view === 'hex' || binary) && bytes.length > SHOWN_HEX_BYTES;
  const cutText = !cutHex && text.length > SHOWN_CHARACTERS;
  return (
    <Stack gap="xs" data-testid="body-viewer">
      <Group justify="space-between">
        {facts}
        <Group gap="xs">
          {!binary && (
            <SegmentedControl
              size="xs"
              aria-label="Body view"
              data={[
                { value: 'formatted', label: 'Formatted' },
                { value: 'raw', label: 'Raw' },
                { value: 'hex', label: 'Hex' },
              ]}
              value={view}
              onChange={(value) => setView(value)}
            />
          )}
          <CopyButton value={binary ? (body.base64 ?? '') : textOf(bytes)}>
            {({ copied, copy }) => (
              <Button size="compact-xs" variant="subtle" onClick={copy}>
                {copied ? 'Copied' : binary ? 'Copy base64' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Group>
      <ScrollArea.Autosize mah={480} type="auto">
        <Code block fz="xs" data-testid="message-body" style={{ whiteSpace: 'pre', overflowWrap: 'normal' }}>
          {cutText ? text.slice(0, SHOWN_CHARACTERS) : text}
        </Code>
      </ScrollArea.Autosize>
      {(cutHex || cutText) && (
        <Text size="xs" c="dimmed">
          Only the start is shown ({cutHex ? formatBytes(SHOWN_HEX_BYTES) : `${SHOWN_CHARACTERS} characters`}); copy the
          body for all of it.
        </Text>
      )}
    </Stack>
  );
}
