'use client';
// The command palette's Saved queries section: the viewer's own and the shared saved queries whose name holds the
// text. A saved query names no cluster, so a hit opens the console's cluster picker with the query in the link (the
// only cluster opens at once).
import { IconBookmark } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PALETTE_PAGE_SIZE, paletteSearchOf } from '@/ui/command-palette/palette-search.ts';
import { useTRPC } from '@/ui/data/trpc.ts';
import type { PaletteSearch } from '@/ui/slots/palette-search-types.ts';

export function useSavedQueryPaletteSearch(text: string): PaletteSearch {
  const trpc = useTRPC();
  const enabled = text !== '';
  const query = useQuery({
    ...trpc.sql.savedQueries.list.queryOptions({ q: text, sort: 'name', page: 1, pageSize: PALETTE_PAGE_SIZE }),
    enabled,
    placeholderData: keepPreviousData,
  });
  if (!enabled) return { result: { kind: 'absent' }, pending: false };
  return paletteSearchOf(query, 'Saved queries', (hits) =>
    hits.map((hit) => ({
      key: `saved-query:${hit.id}`,
      label: hit.name,
      description: hit.mine ? hit.sql : `shared by ${hit.ownerName} · ${hit.sql}`,
      aside: hit.source,
      href: `/sql?${new URLSearchParams({ sql: hit.sql, source: hit.source }).toString()}`,
      icon: IconBookmark,
    })),
  );
}
