import { Anchor } from '@mantine/core';

/** The first thing Tab reaches: jumps over header and navbar to the screen. Visible only while focused. */
export function SkipLink() {
  return (
    <Anchor
      href="#main"
      pos="absolute"
      left={8}
      top={8}
      px="sm"
      py={4}
      bg="var(--mantine-color-body)"
      style={{ zIndex: 1000, transform: 'translateY(-200%)' }}
      onFocus={(event) => (event.currentTarget.style.transform = 'none')}
      onBlur={(event) => (event.currentTarget.style.transform = 'translateY(-200%)')}
    >
      Skip to content
    </Anchor>
  );
}
