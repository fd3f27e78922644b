// What a module's `palette.search` contribution answers: the command palette's section of that module's things
// (clusters, queues) for the text typed so far. The palette draws, orders and navigates the sections; the module
// only says what it found.
import type { ComponentType } from 'react';

export interface PaletteItem {
  /** Unique across the palette, e.g. `cluster:<id>`; the highlight follows it while answers arrive. */
  readonly key: string;
  readonly label: string;
  readonly description: string;
  /** Short text at the row's end, e.g. `3 nodes`. */
  readonly aside?: string;
  readonly href: string;
  readonly icon: ComponentType<{ size?: number }>;
}

type PaletteSearchResult =
  /** Nothing to show and nothing to say: not asked, or not offered to this viewer (403, 404). */
  | { readonly kind: 'absent' }
  /** Said in one line under the section's heading. */
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'hits'; readonly items: readonly PaletteItem[] };

export interface PaletteSearch {
  readonly result: PaletteSearchResult;
  /** A request for the current text is under way (or was not answered yet). */
  readonly pending: boolean;
}
