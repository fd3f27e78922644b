'use client';
// The declared document drawn with the routing module's own graph view. brokerconfig only uses routing (it may be off
// or not installed), so its browser entry is imported here lazily, once the Builder tab is open — and the tab is
// contributed to routing's own screen, so routing is on whenever it shows.
import { Skeleton } from '@mantine/core';
import dynamic from 'next/dynamic';
import { useMemo } from 'react';
import type { ConfigDocument } from '../../server/model/document.ts';
import { declaredView } from './declared-view.ts';

const GRAPH_HEIGHT = 520;

export interface DeclaredGraphProps {
  readonly document: ConfigDocument;
  readonly selected: string | null;
  readonly onSelect: (itemId: string | null) => void;
}

export const DeclaredGraph = dynamic(
  () =>
    import('@/modules/feature/routing/ui.ts').then(({ RoutingGraphView, buildRoutingGraph }) => {
      function DeclaredRoutingGraph({ document, selected, onSelect }: DeclaredGraphProps) {
        const graph = useMemo(() => buildRoutingGraph([declaredView(document)]), [document]);
        return <RoutingGraphView graph={graph} selected={selected} onSelect={onSelect} height={GRAPH_HEIGHT} />;
      }
      return DeclaredRoutingGraph;
    }),
  { ssr: false, loading: () => <Skeleton height={GRAPH_HEIGHT} data-testid="builder-graph-loading" /> },
);
