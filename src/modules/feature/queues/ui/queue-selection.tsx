'use client';
// The queues module's own `queues.selection` panel: how many queues are picked, and their names to copy (for a
// script, a ticket, or another tool). Operations on a selection contribute beside it.
import { Button, CopyButton, Group, Paper, Text } from '@mantine/core';
import type { PanelSlotProps } from '@/ui/slots/contribution-types.ts';

export function QueueSelectionPanel({ keys }: PanelSlotProps['queues.selection']) {
  return (
    <Paper withBorder p="sm" radius="md" aria-label="Selected queues" data-testid="queues-selection">
      <Group justify="space-between">
        <Text size="sm" fw={600}>
          {keys.length} {keys.length === 1 ? 'queue' : 'queues'} selected
        </Text>
        <CopyButton value={keys.join('\n')}>
          {({ copied, copy }) => (
            <Button size="xs" variant="light" onClick={copy}>
              {copied ? 'Copied' : 'Copy names'}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Paper>
  );
}
