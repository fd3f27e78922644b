'use client';
// The topology: one card per logical node, its primary and backup side by side, the serving one marked.
import { Badge, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import { Slot } from '@/ui/slots/slot.tsx';
import { nodeHealth } from './cluster-health.ts';
import { HealthBadge } from './health-badge.tsx';
import { groupLogicalNodes } from './logical-nodes.ts';

export type NodeRow = RouterOutputs['clusters']['nodes']['items'][number];

function NodeBox({ clusterId, node, serving }: { clusterId: string; node: NodeRow; serving: boolean }) {
  return (
    <Card withBorder padding="xs" radius="sm" data-testid="topology-node" data-role={node.role} data-serving={serving}>
      <Stack gap={4}>
        <Group gap={6}>
          <Badge size="sm" variant={node.role === 'PRIMARY' ? 'filled' : 'outline'}>
            {node.role.toLowerCase()}
          </Badge>
          {serving && (
            <Badge size="sm" color="teal">
              serving
            </Badge>
          )}
          <HealthBadge health={nodeHealth(node)} />
        </Group>
        <Text size="sm" fw={600}>
          {node.brokerName ?? 'unknown broker'}
        </Text>
        <Text size="xs" ff="monospace" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {node.managementUrl}
        </Text>
        <Slot id="topology.node.marks" props={{ clusterId, nodeId: node.id }} />
      </Stack>
    </Card>
  );
}

export function TopologyView({ clusterId, nodes }: { clusterId: string; nodes: readonly NodeRow[] }) {
  const groups = groupLogicalNodes(nodes);
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm" data-testid="topology">
      {groups.map((group) => (
        <Card key={group.key} withBorder padding="sm" radius="md" data-testid="logical-node">
          <Text size="xs" c="dimmed" mb={6}>
            Logical node {group.key}
            {group.members[0]?.brokerNodeId ? ` · NodeID ${group.members[0].brokerNodeId.slice(0, 8)}…` : ''}
          </Text>
          <SimpleGrid cols={group.members.length > 1 ? 2 : 1} spacing="xs">
            {group.members.map((node) => (
              <NodeBox key={node.id} clusterId={clusterId} node={node} serving={group.serving?.id === node.id} />
            ))}
          </SimpleGrid>
        </Card>
      ))}
    </SimpleGrid>
  );
}
