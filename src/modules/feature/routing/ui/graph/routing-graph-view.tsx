'use client';
// A routing graph drawn with React Flow (@xyflow/react) on the dagre layout of layout.ts: addresses, queues, diverts,
// bridges and cluster connections, the edges a message travels solid and the dead-letter, expiry and load-balancing
// routes dashed over them. Large graphs stay quick: fixed node sizes (no measuring before layout), only the visible
// part rendered, memoised nodes, and a first view of the first components instead of the whole. The element carries
// data-ready once the first view is fitted, which the browser test and the benchmark wait for.
import '@xyflow/react/dist/style.css';
import { Switch, useComputedColorScheme } from '@mantine/core';
import {
  Background,
  Controls,
  MarkerType,
  getViewportForBounds,
  MiniMap,
  Position,
  ReactFlow,
  type Edge,
  type NodeMouseHandler,
  type ReactFlowInstance,
} from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { RoutingEdge, RoutingGraph } from '../../model/routing-graph.ts';
import { ItemNode, type ItemNodeType } from './item-node.tsx';
import { boundsOf, LAYOUT_EDGE_KINDS, layOutRoutingGraph, type Box } from './layout.ts';

export interface RoutingGraphViewProps {
  readonly graph: RoutingGraph;
  /** Item and edge ids to highlight (e.g. where a message would go); the rest is dimmed while any is. */
  readonly highlighted?: ReadonlySet<string>;
  readonly selected?: string | null;
  readonly onSelect?: (itemId: string | null) => void;
  readonly clusterId?: string;
  readonly height?: number | string;
}

const NODE_TYPES = { item: ItemNode };
/** Up to this many items the whole graph is rendered and fitted; beyond, only what is in view. */
const SMALL_GRAPH = 400;
/** Up to this many dead-letter, expiry and load-balancing edges they are drawn unless switched off. */
const OVERLAY_SHOWN_UP_TO = 150;
const MINIMAP_UP_TO = 1500;
const MIN_ZOOM = 0.05;

const OVERLAY_STYLE: Record<string, { stroke: string; strokeDasharray: string }> = {
  'dead-letter': { stroke: 'var(--mantine-color-red-5)', strokeDasharray: '6 4' },
  expiry: { stroke: 'var(--mantine-color-yellow-6)', strokeDasharray: '6 4' },
  balances: { stroke: 'var(--mantine-color-cyan-5)', strokeDasharray: '2 4' },
};
const OVERLAY_LABEL: Record<string, string> = { 'dead-letter': 'DLA', expiry: 'expiry', balances: 'balances' };

function flowEdge(edge: RoutingEdge, highlighted: boolean, dimmed: boolean): Edge {
  const overlay = !LAYOUT_EDGE_KINDS.has(edge.kind);
  const missing = edge.missingOn.length > 0;
  const stroke = highlighted
    ? 'var(--mantine-color-lime-filled)'
    : missing
      ? 'var(--mantine-color-red-filled)'
      : overlay
        ? OVERLAY_STYLE[edge.kind]?.stroke
        : 'var(--mantine-color-gray-6)';
  return {
    id: edge.id,
    source: edge.from,
    target: edge.to,
    focusable: false,
    selectable: false,
    animated: highlighted,
    label: overlay ? OVERLAY_LABEL[edge.kind] : missing ? `missing on ${String(edge.missingOn.length)}` : undefined,
    markerEnd: { type: MarkerType.ArrowClosed, color: stroke },
    style: {
      stroke,
      strokeWidth: highlighted ? 3 : 1.5,
      strokeDasharray: overlay ? OVERLAY_STYLE[edge.kind]?.strokeDasharray : undefined,
      opacity: dimmed ? 0.25 : 1,
    },
    data: { kind: edge.kind },
  };
}

export function RoutingGraphView({ graph, highlighted, selected, onSelect, height = 640 }: RoutingGraphViewProps) {
  const layout = useMemo(() => layOutRoutingGraph(graph), [graph]);
  const small = graph.items.length <= SMALL_GRAPH;
  const overlayCount = useMemo(() => graph.edges.filter((edge) => !LAYOUT_EDGE_KINDS.has(edge.kind)).length, [graph]);
  const [showOverlay, setShowOverlay] = useState<boolean | undefined>(undefined);
  const overlayShown = showOverlay ?? overlayCount <= OVERLAY_SHOWN_UP_TO;

  const baseNodes = useMemo<ItemNodeType[]>(() => {
    const names = new Map(graph.nodes.map((node) => [node.nodeId, node.nodeName]));
    return graph.items.map((item) => {
      const box = layout.boxes.get(item.id) ?? { x: 0, y: 0, width: 0, height: 0 };
      return {
        id: item.id,
        type: 'item',
        position: { x: box.x, y: box.y },
        width: box.width,
        height: box.height,
        // Declared handles (where item-node.tsx draws them): React Flow otherwise renders every node once to measure
        // them, even with only the visible part rendered — 7,000 nodes mounted and dropped again.
        handles: [
          { type: 'target', position: Position.Left, x: 0, y: box.height / 2 },
          { type: 'source', position: Position.Right, x: box.width, y: box.height / 2 },
        ],
        draggable: false,
        connectable: false,
        data: {
          item,
          missingNames: item.missingOn.map((nodeId) => names.get(nodeId) ?? nodeId),
          highlighted: false,
          dimmed: false,
        },
      };
    });
  }, [graph, layout]);

  const anyHighlighted = (highlighted?.size ?? 0) > 0;
  // Only the nodes whose look changes are new objects, so React Flow re-renders just those.
  const nodes = useMemo(
    () =>
      baseNodes.map((node) => {
        const lit = highlighted?.has(node.id) ?? false;
        const dimmed = anyHighlighted && !lit;
        const isSelected = node.id === selected;
        return lit || dimmed || isSelected
          ? { ...node, selected: isSelected, data: { ...node.data, highlighted: lit, dimmed } }
          : node;
      }),
    [baseNodes, highlighted, anyHighlighted, selected],
  );

  const edges = useMemo(
    () =>
      graph.edges
        .filter(
          (edge) =>
            LAYOUT_EDGE_KINDS.has(edge.kind) ||
            overlayShown ||
            edge.from === selected ||
            edge.to === selected ||
            (highlighted?.has(edge.id) ?? false),
        )
        .map((edge) => {
          const lit = highlighted?.has(edge.id) ?? false;
          return flowEdge(edge, lit, anyHighlighted && !lit);
        }),
    [graph, overlayShown, selected, highlighted, anyHighlighted],
  );

  const onNodeClick = useCallback<NodeMouseHandler<ItemNodeType>>((_, node) => onSelect?.(node.id), [onSelect]);
  const onPaneClick = useCallback(() => onSelect?.(null), [onSelect]);
  // A different set of items (another filter) is a new canvas, fitted again; a live refresh of the same items keeps
  // the viewer's pan and zoom.
  const firstBounds = useMemo(() => boundsOf(layout, small ? undefined : layout.firstView), [layout, small]);
  // A large graph moves to what is highlighted (where a message goes), which may lie outside the first view.
  const focus = useMemo(() => {
    const ids = small ? [] : [...(highlighted ?? [])].filter((id) => layout.boxes.has(id));
    return ids.length > 0 ? boundsOf(layout, ids) : undefined;
  }, [highlighted, layout, small]);
  const viewKey = `${String(graph.items.length)}:${layout.firstView.slice(0, 8).join('|')}`;

  return (
    <div
      data-testid="routing-graph"
      data-items={graph.items.length}
      data-edges={graph.edges.length}
      data-components={layout.components}
      style={{
        height,
        position: 'relative',
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 8,
      }}
    >
      {overlayCount > 0 && (
        <Switch
          size="xs"
          label={`Dead-letter, expiry and load-balancing routes (${String(overlayCount)})`}
          checked={overlayShown}
          onChange={(event) => setShowOverlay(event.currentTarget.checked)}
          style={{ position: 'absolute', zIndex: 5, top: 8, left: 8 }}
          data-testid="overlay-switch"
        />
      )}
      <FlowCanvas
        key={viewKey}
        nodes={nodes}
        edges={edges}
        firstView={firstBounds}
        focus={focus}
        onNodeClick={onNodeClick}
        onPaneClick={onPaneClick}
        minimap={graph.items.length <= MINIMAP_UP_TO}
        visibleOnly={!small}
      />
    </div>
  );
}

function FlowCanvas({
  nodes,
  edges,
  firstView,
  focus,
  onNodeClick,
  onPaneClick,
  minimap,
  visibleOnly,
}: {
  nodes: ItemNodeType[];
  edges: Edge[];
  /** What the first viewport shows: the whole graph, or a large graph's first components. */
  firstView: Box;
  /** What to show instead once it is known (and whenever it changes). */
  focus: Box | undefined;
  onNodeClick: NodeMouseHandler<ItemNodeType>;
  onPaneClick: () => void;
  minimap: boolean;
  visibleOnly: boolean;
}) {
  const scheme = useComputedColorScheme('light');
  const [ready, setReady] = useState(false);
  const element = useRef<HTMLDivElement>(null);
  const flow = useRef<ReactFlowInstance<ItemNodeType>>(null);
  // Viewports from the layout itself: React Flow's own fitView waits for every node to be measured, and with only the
  // visible part rendered most never are.
  const show = useCallback((instance: ReactFlowInstance<ItemNodeType>, bounds: Box) => {
    const { clientWidth, clientHeight } = element.current ?? { clientWidth: 800, clientHeight: 600 };
    return instance.setViewport(getViewportForBounds(bounds, clientWidth, clientHeight, MIN_ZOOM, 1.2, 0.1));
  }, []);
  const onInit = useCallback(
    (instance: ReactFlowInstance<ItemNodeType>) => {
      flow.current = instance;
      void show(instance, focus ?? firstView).then(() => setReady(true));
    },
    [show, focus, firstView],
  );
  useEffect(() => {
    if (focus && flow.current) void show(flow.current, focus);
  }, [focus, show]);
  return (
    <div ref={element} data-testid="routing-canvas" data-ready={ready ? 'true' : undefined} style={{ height: '100%' }}>
      <ReactFlow<ItemNodeType>
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        colorMode={scheme}
        onInit={onInit}
        onNodeClick={onNodeClick}
        onPaneClick={onPaneClick}
        onlyRenderVisibleElements={visibleOnly}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable
        minZoom={MIN_ZOOM}
        maxZoom={2}
      >
        <Background gap={24} />
        <Controls showInteractive={false} />
        {minimap && <MiniMap pannable zoomable />}
      </ReactFlow>
    </div>
  );
}
