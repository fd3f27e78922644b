'use client';
// The command palette: Ctrl+K / Cmd+K anywhere in the console, or the header's Search button, opens one dialog that
// jumps to a screen, a cluster or a queue. Built on Mantine's Modal and Combobox parts (docs/adr/0010): the input
// keeps the focus and names the highlighted option with aria-activedescendant; arrows move, Enter goes, Escape closes.
// The screens are the shell's own; every other section is an enabled module's `palette.search` contribution.
import { Button, Kbd, Modal } from '@mantine/core';
import { useDisclosure, useHotkeys, useOs } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { PALETTE_LABEL, PaletteBody } from './palette-body.tsx';
import { usePaletteSearchIds } from './use-palette-sections.ts';

/** The header's Search button and the dialog it opens; Ctrl+K / Cmd+K opens (and closes) it from anywhere. */
export function CommandPalette() {
  const [opened, { open, close }] = useDisclosure(false);
  // Every opening starts a fresh search, even one during the closing animation of the last (the content is still
  // mounted then, text and all).
  const [session, setSession] = useState(0);
  const searchIds = usePaletteSearchIds();
  const openFresh = () => {
    setSession((current) => current + 1);
    open();
  };
  // Also from inside a text field (a table's filter): the shortcut types nothing there.
  useHotkeys([['mod+K', () => (opened ? close() : openFresh())]], []);
  const os = useOs();
  const shortcut = os === 'macos' || os === 'ios' ? '⌘ K' : 'Ctrl K';
  return (
    <>
      <Button
        variant="default"
        size="sm"
        onClick={openFresh}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={
          <Kbd size="xs" visibleFrom="sm" aria-hidden>
            {shortcut}
          </Kbd>
        }
        aria-haspopup="dialog"
        aria-keyshortcuts="Control+K Meta+K"
      >
        Search
      </Button>
      <Modal.Root opened={opened} onClose={close} size="lg" yOffset="12vh">
        <Modal.Overlay />
        <Modal.Content aria-label={PALETTE_LABEL} data-testid="command-palette">
          <PaletteBody key={`${session}:${searchIds}`} onClose={close} />
        </Modal.Content>
      </Modal.Root>
    </>
  );
}
