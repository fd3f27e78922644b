'use client';
// One item of the routing graph as a React Flow node: its kind, name, the line that matters for routing (a queue's
// routing type and filter, a divert's exclusivity and filter, a bridge's state, a cluster connection's load
// balancing), and the marks of a routing defect: "missing on N" (red) and "differs" (orange). Plain elements with
// Mantine's CSS variables, memoised, and exactly the size the layout gave it: a large graph renders many of them.
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { memo, type CSSProperties } from 'react';
import type { RoutingItem, RoutingItemKind } from '../../model/routing-graph.ts';
import { NODE_SIZE } from './layout.ts';

interface ItemNodeData extends Record<string, unknown> {
  readonly item: RoutingItem;
  /** Names of the nodes lacking the item. */
  readonly missingNames: readonly string[];
  readonly highlighted: boolean;
  /** Something else is highlighted. */
  readonly dimmed: boolean;
}
export type ItemNodeType = Node<ItemNodeData, 'item'>;

export const KIND_LABEL: Readonly<Record<RoutingItemKind, string>> = {
  address: 'Address',
  queue: 'Queue',
  divert: 'Divert',
  bridge: 'Bridge',
  'cluster-connection': 'Cluster connection',
};

export const KIND_COLOR: Readonly<Record<RoutingItemKind, string>> = {
  address: 'blue',
  queue: 'teal',
  divert: 'grape',
  bridge: 'orange',
  'cluster-connection': 'cyan',
};

const text = (value: string | number | boolean | null | undefined): string | undefined =>
  value === null || value === undefined || value === '' ? undefined : String(value);

/** The line under the name: what decides where a message goes through this item. */
function routingLine(item: RoutingItem): string {
  const facts = item.facts;
  switch (item.kind) {
    case 'address': {
      const types = text(facts.routingTypes);
      return types ? types : 'address';
    }
    case 'queue': {
      const filter = text(facts.filter);
      return [text(facts.routingType), filter ? `filter ${filter}` : undefined].filter(Boolean).join(' · ');
    }
    case 'divert': {
      const filter = text(facts.filter);
      return [facts.exclusive ? 'exclusive' : 'non-exclusive', filter ? `filter ${filter}` : undefined]
        .filter(Boolean)
        .join(' · ');
    }
    case 'bridge':
      return facts.started === null || facts.started === undefined
        ? `from ${text(facts.queueName) ?? '?'}`
        : facts.started
          ? 'started'
          : 'stopped';
    case 'cluster-connection':
      return `load balancing ${text(facts.messageLoadBalancing) ?? '?'}`;
  }
}

const mark = (color: string): CSSProperties => ({
  fontSize: 10,
  fontWeight: 700,
  lineHeight: '14px',
  padding: '0 5px',
  borderRadius: 7,
  color: 'white',
  background: `var(--mantine-color-${color}-filled)`,
  whiteSpace: 'nowrap',
});

const hidden: CSSProperties = { opacity: 0, pointerEvents: 'none' };

function ItemNodeView({ data, selected }: NodeProps<ItemNodeType>) {
  const { item, missingNames, highlighted, dimmed } = data;
  const color = KIND_COLOR[item.kind];
  const size = NODE_SIZE[item.kind];
  const border = selected
    ? '3px solid var(--mantine-color-yellow-filled)'
    : highlighted
      ? '3px solid var(--mantine-color-lime-filled)'
      : `1px solid var(--mantine-color-${color}-outline)`;
  const line = routingLine(item);
  return (
    <div
      data-testid="routing-node"
      data-item-id={item.id}
      data-kind={item.kind}
      data-highlighted={highlighted ? 'true' : undefined}
      data-missing={item.missingOn.length || undefined}
      title={item.name}
      style={{
        ...size,
        boxSizing: 'border-box',
        border,
        borderRadius: item.kind === 'address' ? 18 : item.kind === 'divert' ? 2 : 6,
        borderLeft: `6px solid var(--mantine-color-${color}-filled)`,
        background: highlighted ? 'var(--mantine-color-lime-light)' : 'var(--mantine-color-body)',
        opacity: dimmed ? 0.35 : 1,
        padding: '4px 8px',
        overflow: 'hidden',
        fontSize: 12,
        lineHeight: '16px',
        color: 'var(--mantine-color-text)',
        cursor: 'pointer',
      }}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} style={hidden} />
      <div style={{ display: 'flex', gap: 4, alignItems: 'center' }}>
        <span style={{ fontSize: 10, textTransform: 'uppercase', color: `var(--mantine-color-${color}-text)` }}>
          {KIND_LABEL[item.kind]}
        </span>
        <span style={{ flex: 1 }} />
        {item.missingOn.length > 0 && (
          <span style={mark('red')} data-testid="missing-mark" title={`Missing on ${missingNames.join(', ')}`}>
            missing on {item.missingOn.length}
          </span>
        )}
        {item.differs.length > 0 && (
          <span style={mark('orange')} data-testid="differs-mark" title={`Differs: ${item.differs.join(', ')}`}>
            differs
          </span>
        )}
      </div>
      <div style={{ fontWeight: 600, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
        {item.name}
      </div>
      {line && (
        <div
          style={{
            color: 'var(--mantine-color-dimmed)',
            whiteSpace: 'nowrap',
            overflow: 'hidden',
            textOverflow: 'ellipsis',
          }}
        >
          {line}
        </div>
      )}
      <Handle type="source" position={Position.Right} isConnectable={false} style={hidden} />
    </div>
  );
}

export const ItemNode = memo(ItemNodeView);
