'use client';
// The facts of the selected routing item: what it is, where it is missing or differs (a routing defect), its
// configuration as read (summed counts for a queue), and, for a live cluster, links to open its address, queue or
// consumers in their own screens.
import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import Link from 'next/link';
import { Fragment } from 'react';
import { useContributions } from '@/ui/slots/slot.tsx';
import type { RowMenuContribution, RowTarget } from '@/ui/slots/contribution-types.ts';
import type { RoutingGraph, RoutingItem } from '../../model/routing-graph.ts';
import { KIND_COLOR, KIND_LABEL } from './item-node.tsx';

const printable = (value: string | number | boolean | null | undefined): string =>
  value === null || value === undefined || value === ''
    ? '—'
    : typeof value === 'boolean'
      ? value
        ? 'yes'
        : 'no'
      : String(value);

interface FactLink {
  readonly label: string;
  readonly href: string;
}

/**
 * The `Open` items the enabled modules put in a row menu (queues' "Open queue", resources' "Its consumers" and "Open
 * address", routing's own "Open source address"), for one row: the facts panel links where a table's row menu would,
 * and a switched-off module's links are gone with it.
 */
function openLinks(items: readonly RowMenuContribution[], target: RowTarget, prefix = ''): FactLink[] {
  return items.flatMap((item) => {
    if (item.section !== 'Open' || !item.href || (item.visible && !item.visible(target))) return [];
    return [{ label: prefix ? `${item.label} (${prefix})` : item.label, href: item.href(target) }];
  });
}

function useFactLinks(item: RoutingItem, clusterId: string | undefined): FactLink[] {
  const queueItems = useContributions('queue.actions');
  const addressItems = useContributions('address.actions');
  const divertItems = useContributions('divert.actions');
  if (!clusterId) return [];
  const text = (name: string) => (typeof item.facts[name] === 'string' ? item.facts[name] : undefined);
  const queue = (name: string, prefix = '') => openLinks(queueItems, { clusterId, key: name, row: { name } }, prefix);
  const address = (name: string | undefined, prefix = '') =>
    name ? openLinks(addressItems, { clusterId, key: name, row: { name } }, prefix) : [];
  switch (item.kind) {
    case 'address':
      return address(item.name);
    case 'queue':
      return [...queue(item.name), ...address(text('address'), 'its address')];
    case 'divert':
      return [
        ...openLinks(divertItems, { clusterId, key: item.name, row: { ...item.facts, name: item.name } }),
        ...address(text('forwardingAddress'), 'forwarding address'),
      ];
    case 'bridge': {
      const consumed = text('queueName');
      return consumed ? queue(consumed, 'the queue it consumes') : [];
    }
    case 'cluster-connection':
      return [];
  }
}

export function RoutingItemFacts({
  graph,
  itemId,
  clusterId,
}: {
  graph: RoutingGraph;
  itemId: string;
  /** A live cluster's: links open the item's own screens. */
  clusterId?: string;
}) {
  const item = graph.items.find((candidate) => candidate.id === itemId);
  if (!item) return null;
  return <ItemFacts graph={graph} item={item} clusterId={clusterId} />;
}

function ItemFacts({
  graph,
  item,
  clusterId,
}: {
  graph: RoutingGraph;
  item: RoutingItem;
  clusterId?: string | undefined;
}) {
  const links = useFactLinks(item, clusterId);
  const names = new Map(graph.nodes.map((node) => [node.nodeId, node.nodeName]));
  const nameOf = (nodeId: string) => names.get(nodeId) ?? nodeId;
  return (
    <Paper withBorder p="sm" radius="md" data-testid="routing-facts" data-item-id={item.id}>
      <Stack gap="xs">
        <Group gap="xs">
          <Badge color={KIND_COLOR[item.kind]} variant="light">
            {KIND_LABEL[item.kind]}
          </Badge>
          <Text fw={600} style={{ wordBreak: 'break-all' }}>
            {item.name}
          </Text>
        </Group>
        <Text size="sm">
          On {item.presentOn.map(nameOf).join(', ') || 'no node'}
          {item.missingOn.length > 0 && (
            <Text span c="red" fw={600} data-testid="facts-missing">
              {' '}
              — missing on {item.missingOn.map(nameOf).join(', ')}
            </Text>
          )}
        </Text>
        {item.differs.length > 0 && (
          <Text size="sm" c="orange" fw={600}>
            Differs between nodes: {item.differs.join(', ')}
          </Text>
        )}
        <SimpleGrid cols={2} spacing="xs" verticalSpacing={2}>
          {Object.entries(item.facts).map(([name, value]) => (
            <Fragment key={name}>
              <Text size="sm" c="dimmed">
                {name}
              </Text>
              <Text size="sm" style={{ wordBreak: 'break-all' }}>
                {printable(value)}
              </Text>
            </Fragment>
          ))}
        </SimpleGrid>
        {links.length > 0 && (
          <Group gap="md">
            {links.map((link) => (
              <Anchor key={link.label} component={Link} href={link.href} size="sm" data-testid="facts-link">
                {link.label}
              </Anchor>
            ))}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
