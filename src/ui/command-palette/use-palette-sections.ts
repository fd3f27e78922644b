'use client';
// The palette's sections for what is typed: the screens the shell shows (matched here on every key), then the
// section of every enabled module's `palette.search` contribution for the settled text (clusters, queues). A section
// with nothing to show and nothing to say is left out; a module switched off has no section at all.
import { IconLayoutList } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useConsoleUi } from '../slots/console-ui-context.ts';
import type { PaletteItem } from '../slots/palette-search-types.ts';
import { contributionsFor } from '../slots/resolve-ui.ts';
import { matchScreens, paletteScreens } from './palette-screens.ts';

export interface PaletteSection {
  /** `screens`, or the contribution's id (`clusters`, `queues`). */
  readonly id: string;
  readonly title: string;
  readonly items: readonly PaletteItem[];
  readonly failure?: string;
}

interface PaletteSections {
  readonly sections: readonly PaletteSection[];
  /** Every section's items in the order drawn: what the arrows move through. */
  readonly items: readonly PaletteItem[];
  /** The text has not settled, or a section's answer for it is still on its way. */
  readonly pending: boolean;
}

/** The ids of the enabled searches: the palette starts afresh when they change, so its hooks stay the same ones. */
export function usePaletteSearchIds(): string {
  return contributionsFor(useConsoleUi().enabled, 'palette.search')
    .map((search) => search.id)
    .join(' ');
}

export function usePaletteSections(text: string, settled: string): PaletteSections {
  const { enabled } = useConsoleUi();
  // The same hooks in the same order on every render: the list changes only with the enabled modules, and then the
  // palette is mounted anew (`usePaletteSearchIds`).
  const searches = contributionsFor(enabled, 'palette.search').map((search) => ({
    search,
    answer: search.useSearch(settled),
  }));
  const screens = useMemo(() => matchScreens(paletteScreens(enabled), text), [enabled, text]);

  const screenSection: PaletteSection = {
    id: 'screens',
    title: 'Screens',
    items: screens.map((screen) => ({
      key: `screen:${screen.href}`,
      label: screen.label,
      description: screen.where,
      href: screen.href,
      icon: screen.icon ?? IconLayoutList,
    })),
  };
  const contributed = searches.flatMap(({ search, answer: { result } }): PaletteSection[] => {
    if (result.kind === 'absent') return [];
    if (result.kind === 'failed') return [{ id: search.id, title: search.title, items: [], failure: result.message }];
    return [{ id: search.id, title: search.title, items: result.items }];
  });
  const sections = [screenSection, ...contributed].filter((section) => section.items.length > 0 || section.failure);
  return {
    sections,
    items: sections.flatMap((section) => section.items),
    pending: text !== settled || searches.some(({ answer }) => answer.pending),
  };
}
