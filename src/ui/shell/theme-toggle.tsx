'use client';
// Both icons are rendered and CSS shows the one for the current scheme, so the server's HTML matches the
// client's whatever scheme the viewer stored (no hydration mismatch). No inline `display` on them: it would win
// over the class that hides the other scheme's icon, and both would show.
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
        <Box component="span" darkHidden>
          <IconMoon size={18} aria-hidden />
        </Box>
        <Box component="span" lightHidden>
          <IconSun size={18} aria-hidden />
        </Box>
      </ActionIcon>
    </Tooltip>
  );
}
