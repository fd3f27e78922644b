import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The top of every screen: its title, one sentence on what it is for, and the screen's own actions. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap" mb="lg">
      <Stack gap={4}>
        <Title order={1} fz="h2">
          {title}
        </Title>
        {description && (
          <Text c="dimmed" maw="70ch">
            {description}
          </Text>
        )}
      </Stack>
      {actions && <Group gap="xs">{actions}</Group>}
    </Group>
  );
}
