// What an alert action's dialog shows once it is applied: what was done, and the way out.
import { Alert, Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';

export function ActionDone({ title, children, onClose }: { title: string; children: ReactNode; onClose: () => void }) {
  return (
    <>
      <Alert variant="light" color="teal" title={title} data-testid="action-done">
        {children}
      </Alert>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
      </Group>
    </>
  );
}
