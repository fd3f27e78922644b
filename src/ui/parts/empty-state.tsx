import { Stack, Text, ThemeIcon } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** Says why there is nothing to show and, when there is one, what to do about it. */
export function EmptyState({
  title,
  children,
  action,
  kind,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  /** A list's empty state: nothing here yet (`none`) or nothing that matches the filter (`filtered`). */
  kind?: 'none' | 'filtered';
}) {
  return (
    <Stack align="center" gap="xs" py="xl" data-testid="empty-state" data-empty={kind}>
      <ThemeIcon variant="light" color="gray" size={48} radius="xl" aria-hidden>
        <IconInbox size={28} stroke={1.5} />
      </ThemeIcon>
      <Text fw={600}>{title}</Text>
      {children && (
        <Text size="sm" c="dimmed" ta="center" maw="60ch">
          {children}
        </Text>
      )}
      {action}
    </Stack>
  );
}
