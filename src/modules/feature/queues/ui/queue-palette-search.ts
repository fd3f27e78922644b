'use client';
// The command palette's Queues section: queues of every cluster whose name holds the text, from the fleet-wide
// search `GET /api/v1/queues?q=` (the triage module's; while it is off the answer is 404 and the section is absent).
// Asked only once there is text. A hit goes to the queue's page.
import { IconStack2 } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PALETTE_PAGE_SIZE, paletteSearchOf, plural } from '@/ui/command-palette/palette-search.ts';
import { fetchJson } from '@/ui/data/problem.ts';
import type { PaletteItem, PaletteSearch } from '@/ui/slots/palette-search-types.ts';
import { queuePath } from './queue-paths.ts';

/** One row of `GET /api/v1/queues?q=`. */
interface QueueHit {
  readonly clusterId: string;
  readonly clusterName: string;
  readonly address: string;
  readonly queueName: string;
  readonly routingType: string;
  readonly messageCount: number;
}

interface QueueSearchAnswer {
  readonly items: readonly QueueHit[];
  readonly total: number;
}

function queueItem(hit: QueueHit): PaletteItem {
  return {
    key: `queue:${hit.clusterId}:${hit.queueName}`,
    label: hit.queueName,
    description: `${hit.clusterName} · ${hit.address} · ${hit.routingType}`,
    aside: plural(hit.messageCount, 'message'),
    href: queuePath(hit.clusterId, hit.queueName),
    icon: IconStack2,
  };
}

export function useQueuePaletteSearch(text: string): PaletteSearch {
  const enabled = text !== '';
  const query = useQuery({
    queryKey: ['rest', 'queue-search', text],
    queryFn: () =>
      fetchJson<QueueSearchAnswer>(
        `/api/v1/queues?${new URLSearchParams({ q: text, pageSize: String(PALETTE_PAGE_SIZE) })}`,
      ),
    enabled,
    placeholderData: keepPreviousData,
  });
  if (!enabled) return { result: { kind: 'absent' }, pending: false };
  return paletteSearchOf(query, 'Queues', (hits) => hits.map(queueItem));
}
