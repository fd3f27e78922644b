'use client';
// The messages module's `queue.detail.panels` panel: the way from a queue to its messages.
import { Button, Group, Paper, Text } from '@mantine/core';
import { IconMailOpened } from '@tabler/icons-react';
import Link from 'next/link';
import type { PanelSlotProps } from '@/ui/slots/contribution-types.ts';
import { messagesPath } from './message-paths.ts';

export function QueueMessagesPanel({ clusterId, queueName }: PanelSlotProps['queue.detail.panels']) {
  return (
    <Paper withBorder p="md" radius="md" aria-label="Messages" data-testid="queue-messages-panel">
      <Group justify="space-between">
        <div>
          <Text fw={600}>Messages</Text>
          <Text size="sm" c="dimmed">
            Browse a node’s copy of the queue (masked by the content policy) and send messages to it.
          </Text>
        </div>
        <Button
          component={Link}
          href={messagesPath(clusterId, queueName)}
          variant="light"
          leftSection={<IconMailOpened size={16} />}
        >
          Browse messages
        </Button>
      </Group>
    </Paper>
  );
}
