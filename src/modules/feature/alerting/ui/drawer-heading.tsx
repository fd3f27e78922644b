// The heading of a section in the alert drawer.
import { Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function DrawerHeading({ children }: { children: ReactNode }) {
  return (
    <Title order={4} fz="sm">
      {children}
    </Title>
  );
}
