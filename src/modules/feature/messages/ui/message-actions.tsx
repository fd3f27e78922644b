'use client';
// What can be done to the one message open in the drawer, on the node it was read from: delete it, move it to
// another queue, or (on a dead-letter queue) send it back where it died. Each is the queue operation by id
// (messageIds: [id], nodeId) through the broker command dialog: a dry run, the hold, the outcome; then the page is
// read again. The broker's own id of a message comes with the management channel only: a page read natively
// carries the message's AMQP id instead, so there the actions offer to read the page over management first.
// The dialogs are in message-action-dialogs.tsx.
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconArrowBackUp, IconArrowsRightLeft, IconTrash } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { CapabilityNote, GateIcon, GateTooltip, type CapabilityGate } from '@/modules/platform/clusters/ui.ts';
import { MESSAGE_ACTION_DIALOGS, type MessageAction } from './message-action-dialogs.tsx';
import { brokerIdOf, type MessageOrigin } from './message-origin.ts';

/**
 * The drawer's actions for one message. `onDone` runs when the dialog of a real (not dry) run is closed: the drawer
 * closes (the page was read again when the run finished). `onReadOverManagement` is offered on a natively read page, which has no broker ids.
 */
export function MessageActions({
  origin,
  messageId,
  gate,
  onDone,
  onReadOverManagement,
}: {
  origin: MessageOrigin;
  messageId: string;
  gate: CapabilityGate;
  onDone: () => void;
  onReadOverManagement: (() => void) | undefined;
}) {
  const [action, setAction] = useState<MessageAction | undefined>();
  // A real run happened: closing its dialog closes the drawer too (the message is gone, or elsewhere).
  const [acted, setActed] = useState(false);
  const id = brokerIdOf(messageId, origin.channel);
  const Dialog = action && id ? MESSAGE_ACTION_DIALOGS[action] : undefined;
  const button = (which: MessageAction, label: string, icon: ReactNode, colour?: string) => (
    <GateTooltip gate={gate}>
      <Button
        size="xs"
        variant="light"
        color={colour}
        leftSection={icon}
        rightSection={<GateIcon gate={gate} />}
        disabled={!id || gate.disabled}
        onClick={() => setAction(which)}
      >
        {label}
      </Button>
    </GateTooltip>
  );
  return (
    <Stack gap="xs" data-testid="message-actions">
      <Group gap="xs">
        {button('delete', 'Delete…', <IconTrash size={14} />, 'red')}
        {button('move', 'Move…', <IconArrowsRightLeft size={14} />)}
        {origin.deadLetter && button('retry', 'Retry…', <IconArrowBackUp size={14} />)}
      </Group>
      {gate.reason && <CapabilityNote gate={gate} />}
      {!id && (
        <Alert color="gray" variant="light" p="xs" data-testid="message-actions-need-id">
          <Stack gap={6}>
            <Text size="xs">
              {origin.channel === 'native'
                ? 'This page was read natively: AMQP carries the message’s own id, not the broker’s, and acting on one message needs the broker’s id. The management channel gives it (bodies and properties may be cut there).'
                : 'The broker gave no id for this message, so it cannot be acted on alone; use a selector in the queue’s Operate menu.'}
            </Text>
            {onReadOverManagement && (
              <Group>
                <Button size="compact-xs" variant="default" onClick={onReadOverManagement}>
                  Read this page over management
                </Button>
              </Group>
            )}
          </Stack>
        </Alert>
      )}
      {Dialog && id && (
        <Dialog
          key={action}
          origin={origin}
          id={id}
          notice={<CapabilityNote gate={gate} />}
          onClose={() => {
            setAction(undefined);
            if (acted) onDone();
          }}
          onDone={() => setActed(true)}
        />
      )}
    </Stack>
  );
}
