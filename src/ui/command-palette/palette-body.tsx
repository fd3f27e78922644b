'use client';
// Inside the palette's dialog: the search input (which keeps the focus and names the highlighted option), the
// sections as a listbox, and the key hints. Arrows move, Enter goes, Escape closes (the dialog's own).
import { Combobox, Group, Kbd, Loader, ScrollArea, Text, TextInput, VisuallyHidden, useCombobox } from '@mantine/core';
import { useDebouncedValue, useId } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { PaletteItem } from '../slots/palette-search-types.ts';
import { PaletteOptions } from './palette-options.tsx';
import { plural } from './palette-search.ts';
import { usePaletteHighlight } from './use-palette-highlight.ts';
import { usePaletteSections } from './use-palette-sections.ts';

/** Typing settles for this long before the server is asked. */
const DEBOUNCE_MS = 150;
export const PALETTE_LABEL = 'Go to a screen, cluster or queue';

export function PaletteBody({ onClose }: { onClose: () => void }) {
  const router = useRouter();
  const combobox = useCombobox();
  const baseId = useId();
  const [query, setQuery] = useState('');
  const text = query.trim();
  const [debounced] = useDebouncedValue(text, DEBOUNCE_MS);
  // The modal's focus trap focuses `data-autofocus` a tick after opening; keys typed straight after Ctrl+K would be
  // lost in between, so the input takes the focus as soon as it is there.
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => inputRef.current?.focus(), []);

  const { sections, items, pending } = usePaletteSections(text, debounced);
  const highlight = usePaletteHighlight(items, baseId);

  const go = (item: PaletteItem | undefined) => {
    if (!item) return;
    onClose();
    router.push(item.href);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      highlight.move(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      go(highlight.active);
    }
  };

  const listId = `${baseId}-list`;
  return (
    <Combobox store={combobox} onOptionSubmit={(key) => go(items.find((item) => item.key === key))}>
      <TextInput
        ref={inputRef}
        data-autofocus
        size="md"
        variant="unstyled"
        px="sm"
        placeholder={`${PALETTE_LABEL}…`}
        aria-label={PALETTE_LABEL}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded
        aria-controls={listId}
        aria-activedescendant={highlight.activeId}
        autoComplete="off"
        spellCheck={false}
        value={query}
        onChange={(event) => {
          setQuery(event.currentTarget.value);
          highlight.reset();
        }}
        onKeyDown={onKeyDown}
        leftSection={<IconSearch size={18} aria-hidden />}
        rightSection={pending ? <Loader size="xs" aria-label="Searching" /> : undefined}
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      />
      <VisuallyHidden aria-live="polite">
        {pending ? '' : items.length === 0 ? 'No results' : plural(items.length, 'result')}
      </VisuallyHidden>
      <ScrollArea.Autosize mah="min(60vh, 480px)" type="auto">
        <PaletteOptions
          listId={listId}
          sections={sections}
          text={text}
          pending={pending}
          activeIndex={highlight.activeIndex}
          optionId={highlight.optionId}
        />
      </ScrollArea.Autosize>
      <KeyHints />
    </Combobox>
  );
}

function KeyHints() {
  return (
    <Group gap="md" px="md" py={6} aria-hidden style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <Text size="xs" c="dimmed">
        <Kbd size="xs">↑</Kbd> <Kbd size="xs">↓</Kbd> to move
      </Text>
      <Text size="xs" c="dimmed">
        <Kbd size="xs">Enter</Kbd> to open
      </Text>
      <Text size="xs" c="dimmed">
        <Kbd size="xs">Esc</Kbd> to close
      </Text>
    </Group>
  );
}
