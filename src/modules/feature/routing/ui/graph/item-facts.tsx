'use client';
// The facts of the selected routing item: what it is, where it is missing or differs (a routing defect), its
// configuration as read (summed counts for a queue), and, for a live cluster, links to open its address, queue or
// consumers in their own screens.
import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import Link from 'next/link';
import { Fragment } from 'react';
import { queuePath } from '@/modules/feature/queues/ui.ts';
import { addressPath, resourceListPath } from '@/modules/feature/resources/ui.ts';
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

function linksOf(item: RoutingItem, clusterId: string): Array<{ label: string; href: string }> {
  const address = typeof item.facts.address === 'string' ? item.facts.address : undefined;
  switch (item.kind) {
    case 'address':
      return [{ label: 'Open address', href: addressPath(clusterId, item.name) }];
    case 'queue':
      return [
        { label: 'Open queue', href: queuePath(clusterId, item.name) },
        { label: 'Consumers', href: resourceListPath(clusterId, 'consumers', { queue: item.name }) },
        ...(address ? [{ label: 'Open its address', href: addressPath(clusterId, address) }] : []),
      ];
    case 'divert':
      return [
        ...(address ? [{ label: 'Open its address', href: addressPath(clusterId, address) }] : []),
        ...(typeof item.facts.forwardingAddress === 'string'
          ? [{ label: 'Open the forwarding address', href: addressPath(clusterId, item.facts.forwardingAddress) }]
          : []),
      ];
    case 'bridge':
      return typeof item.facts.queueName === 'string'
        ? [{ label: 'Open the queue it consumes', href: queuePath(clusterId, item.facts.queueName) }]
        : [];
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
  const names = new Map(graph.nodes.map((node) => [node.nodeId, node.nodeName]));
  const nameOf = (nodeId: string) => names.get(nodeId) ?? nodeId;
  const links = clusterId ? linksOf(item, clusterId) : [];
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
