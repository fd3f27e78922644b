// What a module's `palette.search` hook builds its answer from: one query of its own (a tRPC list, a REST search),
// turned into a palette section the same way for every module. A section the server does not offer this viewer
// (404: not built or switched off; 403: no permission) is absent rather than an error; any other failure is said in
// one line under its heading.
import { problemOf } from '../data/problem.ts';
import type { PaletteItem, PaletteSearch } from '../slots/palette-search-types.ts';

/** How many hits a section asks for. */
export const PALETTE_PAGE_SIZE = 8;

const NOT_OFFERED = new Set([403, 404]);

export const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

interface SearchQuery<Hit> {
  readonly data?: { readonly items: readonly Hit[] };
  readonly error: unknown;
  readonly isPending: boolean;
  readonly isPlaceholderData: boolean;
}

/** The section for a query's state; `what` names the section in a failure ("Clusters could not be searched: …"). */
export function paletteSearchOf<Hit>(
  query: SearchQuery<Hit>,
  what: string,
  toItems: (hits: readonly Hit[]) => PaletteItem[],
): PaletteSearch {
  const pending = query.isPending || query.isPlaceholderData;
  if (query.error) {
    const problem = problemOf(query.error);
    if (problem.status !== undefined && NOT_OFFERED.has(problem.status)) return { result: { kind: 'absent' }, pending };
    const message = `${what} could not be searched: ${problem.detail ?? problem.title}`;
    return { result: { kind: 'failed', message }, pending };
  }
  return { result: query.data ? { kind: 'hits', items: toItems(query.data.items) } : { kind: 'absent' }, pending };
}
