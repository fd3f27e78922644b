'use client';
// One message in full: its headers, its properties with their wire types, what the content policy masked (with the
// data class and the rule that did it), what the broker cut, and the body. In the browser's drawer (with what can be
// done to the message) and under the send form (the echo).
import { Badge, Box, Code, Drawer, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { BodyViewer } from './body-viewer.tsx';
import { headerText, isTruncated, type MessageView } from './message-fields.ts';

function Heading({ children }: { children: ReactNode }) {
  return (
    <Title order={4} fz="sm">
      {children}
    </Title>
  );
}

/** Name–value rows (one record's fields, not a list to search): a definition list in two or three columns. */
function Fields({
  rows,
  testId,
  empty,
}: {
  rows: ReadonlyArray<{ name: string; value: string; type?: string; masked?: boolean }>;
  testId: string;
  empty: string;
}) {
  if (rows.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid={testId}>
        {empty}
      </Text>
    );
  return (
    <Box
      component="dl"
      data-testid={testId}
      m={0}
      style={{ display: 'grid', gridTemplateColumns: 'minmax(120px, max-content) 1fr', columnGap: 16, rowGap: 6 }}
    >
      {rows.map((row) => (
        <Box key={row.name} style={{ display: 'contents' }} data-field={row.name}>
          <Box component="dt" m={0}>
            <Code>{row.name}</Code>
          </Box>
          <Box component="dd" m={0} style={{ wordBreak: 'break-all' }}>
            <Text span size="sm" ff="monospace">
              {row.value}
            </Text>
            {row.type && (
              <Text span size="xs" c="dimmed" ml={6}>
                {row.type}
              </Text>
            )}
            {row.masked && (
              <Badge size="xs" color="grape" variant="light" ml={6}>
                masked
              </Badge>
            )}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

export function MessageDetails({ message }: { message: MessageView }) {
  // The policy names a header or property `header:<name>` or `property:<name>` (a path inside it may follow).
  const isMasked = (kind: 'header' | 'property', name: string) =>
    message.redactions.some(
      (redaction) => redaction.location === `${kind}:${name}` || redaction.location.startsWith(`${kind}:${name}.`),
    );
  return (
    <Stack gap="md" data-testid="message-details">
      <Stack gap="xs">
        <Heading>Headers</Heading>
        <Fields
          testId="message-headers"
          empty="No headers."
          rows={Object.entries(message.headers).map(([name, value]) => ({
            name,
            value: headerText(value),
            masked: isMasked('header', name),
          }))}
        />
      </Stack>
      <Stack gap="xs">
        <Heading>Properties</Heading>
        <Fields
          testId="message-properties"
          empty="No application properties."
          rows={Object.entries(message.properties).map(([name, value]) => ({
            name,
            value: headerText(value),
            type: message.propertyTypes[name] ?? 'unknown type',
            masked: isMasked('property', name),
          }))}
        />
      </Stack>
      {message.redactions.length > 0 && (
        <Stack gap="xs">
          <Heading>Masked by the content policy</Heading>
          <Fields
            testId="message-redactions"
            empty=""
            rows={message.redactions.map((redaction, index) => ({
              name: `${redaction.location}${message.redactions.findIndex((other) => other.location === redaction.location) === index ? '' : ` (${index + 1})`}`,
              value: `${redaction.dataClass}: ${redaction.action}`,
              type: `by ${redaction.by}`,
            }))}
          />
        </Stack>
      )}
      {isTruncated(message) && (
        <Text size="sm" c="orange" data-testid="message-truncated">
          The broker cut {message.truncatedFields.length > 0 ? message.truncatedFields.join(', ') : 'the body'} (its
          management attribute size limit); the native channel reads whole messages.
        </Text>
      )}
      <Stack gap="xs">
        <Heading>Body</Heading>
        <BodyViewer body={message.body} truncated={message.bodyTruncated} />
      </Stack>
    </Stack>
  );
}

export function MessageDrawer({
  message,
  actions,
  onClose,
}: {
  message: MessageView | undefined;
  /** What can be done to it (the browser's message actions), above its content. */
  actions?: ReactNode;
  onClose: () => void;
}) {
  return (
    <Drawer
      opened={message !== undefined}
      onClose={onClose}
      position="right"
      size="xl"
      title={message ? `Message ${message.messageId || '(no id)'}` : ''}
    >
      {message && (
        <Stack gap="md">
          {actions}
          <MessageDetails message={message} />
        </Stack>
      )}
    </Drawer>
  );
}
