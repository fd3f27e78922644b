'use client';
// The palette's listbox: one labelled group per section (its failure, if any, under the heading), an option per item
// with the typed words highlighted in its label, and the empty state when nothing matches.
import { Box, Combobox, Group, Highlight, Text } from '@mantine/core';
import type { PaletteItem } from '../slots/palette-search-types.ts';
import type { PaletteSection } from './use-palette-sections.ts';

/** Secondary text follows the option's own colour, so it stays readable on the highlighted option's fill. */
const SECONDARY = { opacity: 0.72 } as const;

interface PaletteOptionsProps {
  readonly listId: string;
  readonly sections: readonly PaletteSection[];
  readonly text: string;
  readonly pending: boolean;
  readonly activeIndex: number;
  readonly optionId: (index: number) => string;
}

export function PaletteOptions({ listId, sections, text, pending, activeIndex, optionId }: PaletteOptionsProps) {
  const words = text.split(/\s+/).filter(Boolean);
  // Each section's first option's place among all options, which the option ids and the highlight count in.
  const starts = sections.map((_, at) => sections.slice(0, at).reduce((sum, section) => sum + section.items.length, 0));
  return (
    <Combobox.Options id={listId} aria-label="Results" p="xs">
      {sections.map((section, at) => (
        <Combobox.Group key={section.id} label={section.title} data-palette-section={section.id}>
          {section.failure && (
            <Text size="sm" c="red" px="sm" py={4} role="status">
              {section.failure}
            </Text>
          )}
          {section.items.map((item, offset) => {
            const index = (starts[at] ?? 0) + offset;
            return (
              <PaletteOption
                key={item.key}
                item={item}
                id={optionId(index)}
                active={index === activeIndex}
                words={words}
              />
            );
          })}
        </Combobox.Group>
      ))}
      {sections.length === 0 && !pending && (
        <Combobox.Empty py="lg" data-testid="command-palette-empty">
          <Text size="sm" fw={600}>
            Nothing matches “{text}”
          </Text>
          <Text size="xs" c="dimmed">
            Screens, clusters and queues are found by name.
          </Text>
        </Combobox.Empty>
      )}
    </Combobox.Options>
  );
}

function PaletteOption({
  item,
  id,
  active,
  words,
}: {
  item: PaletteItem;
  id: string;
  active: boolean;
  words: string[];
}) {
  const Icon = item.icon;
  return (
    <Combobox.Option value={item.key} id={id} selected={active} aria-selected={active} data-href={item.href}>
      <Group gap="sm" wrap="nowrap">
        <Box component="span" aria-hidden style={{ display: 'flex', ...SECONDARY }}>
          <Icon size={18} />
        </Box>
        <Box style={{ flex: 1, minWidth: 0 }}>
          <Highlight highlight={words} size="sm" fw={500} truncate>
            {item.label}
          </Highlight>
          <Text size="xs" style={SECONDARY} truncate>
            {item.description}
          </Text>
        </Box>
        {item.aside && (
          <Text size="xs" style={{ whiteSpace: 'nowrap', ...SECONDARY }}>
            {item.aside}
          </Text>
        )}
      </Group>
    </Combobox.Option>
  );
}
