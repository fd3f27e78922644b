import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled block of a screen. `id` makes it linkable (`#section`). */
export function PageSection({
  title,
  description,
  id,
  children,
}: {
  title: string;
  description?: ReactNode;
  id?: string;
  children: ReactNode;
}) {
  return (
    <Paper component="section" withBorder p="md" radius="md" id={id} aria-label={title}>
      <Stack gap="sm">
        <div>
          <Title order={3} fz="h4">
            {title}
          </Title>
          {description && (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          )}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}
