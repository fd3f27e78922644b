'use client';
// Both icons are rendered and CSS shows the one for the current scheme, so the server's HTML matches the
// client's whatever scheme the viewer stored (no hydration mismatch).
import { ActionIcon, Box, Tooltip, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';

const LABEL = 'Switch between light and dark theme';

export function ThemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: true });
  return (
    <Tooltip label={LABEL} withArrow>
      <ActionIcon
        variant="default"
        size="lg"
        aria-label={LABEL}
        onClick={() => setColorScheme(computed === 'dark' ? 'light' : 'dark')}
      >
        <Box component="span" display="flex" darkHidden>
          <IconMoon size={18} aria-hidden />
        </Box>
        <Box component="span" display="flex" lightHidden>
          <IconSun size={18} aria-hidden />
        </Box>
      </ActionIcon>
    </Tooltip>
  );
}
