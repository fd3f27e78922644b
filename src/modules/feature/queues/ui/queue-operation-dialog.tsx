'use client';
// The dialog of the operation the URL names, or why it is not offered: writes are off on the cluster (the
// capability ledger's reason), or retry on a queue that is not a dead-letter queue (a row menu link offers Retry on
// every row).
import { Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { CapabilityNote, type CapabilityGate } from '@/modules/platform/clusters/ui.ts';
import {
  DeleteMessagesOperation,
  MoveMessagesOperation,
  PurgeOperation,
  RetryOperation,
} from './message-operations.tsx';
import type { Queue } from './queue-operation-kit.tsx';
import { TITLES, type OperationId } from './queue-operation-ids.ts';
import { DeleteQueueOperation, PauseOperation, ResumeOperation } from './queue-state-operations.tsx';

const DIALOGS = {
  purge: PurgeOperation,
  'delete-messages': DeleteMessagesOperation,
  'move-messages': MoveMessagesOperation,
  retry: RetryOperation,
  pause: PauseOperation,
  resume: ResumeOperation,
  'delete-queue': DeleteQueueOperation,
} satisfies Record<OperationId, unknown>;

function NotOffered({ title, children, onClose }: { title: string; children: ReactNode; onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title={title} size="lg">
      <Stack gap="sm" data-testid="operation-not-offered">
        {children}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function QueueOperationDialog({
  operation,
  clusterId,
  queue,
  gate,
  open,
}: {
  operation: OperationId;
  clusterId: string;
  queue: Queue;
  gate: CapabilityGate;
  /** Opens another operation, or closes this one (undefined). */
  open: (next: OperationId | undefined) => void;
}) {
  const close = () => open(undefined);
  const title = `${TITLES[operation]} ${queue.queueName}`;
  if (gate.disabled)
    return (
      <NotOffered title={title} onClose={close}>
        <CapabilityNote gate={gate} />
      </NotOffered>
    );
  if (operation === 'retry' && !queue.deadLetter)
    return (
      <NotOffered title={title} onClose={close}>
        <Text size="sm">
          {queue.queueName} is not a dead-letter or expiry queue of its brokers’ address settings: its messages have no
          address they died on to go back to. Move them to another queue instead, or open the dead letters.
        </Text>
        <Group gap="md">
          <Anchor component="button" type="button" size="sm" onClick={() => open('move-messages')}>
            Move messages…
          </Anchor>
          <Anchor component={Link} href="/dead-letters" size="sm">
            Dead letters
          </Anchor>
        </Group>
      </NotOffered>
    );
  const Dialog = DIALOGS[operation];
  return (
    <Dialog
      key={operation}
      clusterId={clusterId}
      queue={queue}
      onClose={close}
      notice={<CapabilityNote gate={gate} />}
    />
  );
}
