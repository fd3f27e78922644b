'use client';
// The command palette's Clusters section: clusters whose name (or environment, description) holds the text, from the
// clusters screen's own list; before any text, the first page by name. A hit goes to the cluster's page.
import { IconServer2 } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PALETTE_PAGE_SIZE, paletteSearchOf, plural } from '@/ui/command-palette/palette-search.ts';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import type { PaletteItem, PaletteSearch } from '@/ui/slots/palette-search-types.ts';

type ClusterHit = RouterOutputs['clusters']['list']['items'][number];

function clusterItem(cluster: ClusterHit): PaletteItem {
  return {
    key: `cluster:${cluster.id}`,
    label: cluster.name,
    description: cluster.environment ? `Cluster in ${cluster.environment.name}` : 'Cluster',
    aside: plural(cluster.logicalNodeCount, 'node'),
    href: `/clusters/${encodeURIComponent(cluster.id)}`,
    icon: IconServer2,
  };
}

export function useClusterPaletteSearch(text: string): PaletteSearch {
  const trpc = useTRPC();
  const input = { ...(text ? { q: text } : {}), sort: 'name' as const, page: 1, pageSize: PALETTE_PAGE_SIZE };
  const query = useQuery({ ...trpc.clusters.list.queryOptions(input), placeholderData: keepPreviousData });
  return paletteSearchOf(query, 'Clusters', (hits) => hits.map(clusterItem));
}
