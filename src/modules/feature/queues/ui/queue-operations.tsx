'use client';
// The queue page's Operate menu: purge, delete or move messages (by a JMS selector), send dead letters back, pause
// or resume delivery, delete the queue. Each opens the operation dialog (dry run, per-node preview, confirmation,
// outcome, audit). The open operation is in the URL (`?operate=purge`), so a link can open it (the grid's row menu
// does). The cluster's capability ledger gates the menu: writes UNAVAILABLE disable every item with the reason, and a
// link to one says why instead of opening it; UNKNOWN keeps them enabled and says what is not confirmed.
// The operations are in message-operations.tsx and queue-state-operations.tsx; the dialog chosen in
// queue-operation-dialog.tsx.
import { Box, Button, Menu } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { CapabilityNote, GateIcon, useCapabilityGate } from '@/modules/platform/clusters/ui.ts';
import { QueueOperationDialog } from './queue-operation-dialog.tsx';
import type { OperationId } from './queue-operation-ids.ts';
import type { Queue } from './queue-operation-kit.tsx';
import { useOperateParam } from './use-operate-param.ts';

/** The Operate menu of the queue page and the dialog of the operation the URL names. Writes the capability ledger
 *  finds unavailable disable every item (the reason and the broker.xml that changes it in the menu); uncertain
 *  ones keep them enabled and say so. */
export function QueueOperations({ clusterId, queue }: { clusterId: string; queue: Queue | undefined }) {
  const gate = useCapabilityGate(clusterId);
  const { operation, open } = useOperateParam();
  const item = (id: OperationId, label: string, colour?: string) => (
    <Menu.Item
      key={id}
      color={colour}
      disabled={gate.disabled}
      leftSection={<GateIcon gate={gate} />}
      onClick={() => open(id)}
    >
      {label}
    </Menu.Item>
  );
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button
            size="xs"
            leftSection={<GateIcon gate={gate} />}
            rightSection={<IconChevronDown size={14} />}
            disabled={!queue}
            data-capability={gate.value}
          >
            Operate
          </Button>
        </Menu.Target>
        <Menu.Dropdown data-testid="queue-operate-menu">
          {gate.reason && (
            <Box px="sm" py={6}>
              <CapabilityNote gate={gate} compact />
            </Box>
          )}
          <Menu.Label>Messages</Menu.Label>
          {item('purge', 'Purge…')}
          {item('delete-messages', 'Delete messages…')}
          {item('move-messages', 'Move messages…')}
          {queue?.deadLetter && item('retry', 'Retry dead letters…')}
          <Menu.Label>Delivery</Menu.Label>
          {queue?.paused ? item('resume', 'Resume…') : item('pause', 'Pause…')}
          <Menu.Divider />
          {item('delete-queue', 'Delete queue…', 'red')}
        </Menu.Dropdown>
      </Menu>
      {queue && operation && (
        <QueueOperationDialog operation={operation} clusterId={clusterId} queue={queue} gate={gate} open={open} />
      )}
    </>
  );
}
