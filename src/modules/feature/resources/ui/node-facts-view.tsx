'use client';
// One node's facts: version, uptime, journal, address memory and disk against their limits as bars, counts, and
// the warnings (paging, full addresses, limits near) in words. Used on the cluster overview and the node page.
import { Alert, Anchor, Badge, Group, Paper, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import Link from 'next/link';
import type { RouterOutputs } from '@/ui/data/trpc.ts';
import { nodePath } from './resource-paths.ts';

export type NodeFactsEntry = RouterOutputs['resources']['facts']['nodes'][number];
type NodeFacts = Extract<NodeFactsEntry, { ok: true }>;

const mib = (bytes: number | null) =>
  bytes === null ? '—' : `${(bytes / 1_048_576).toFixed(bytes < 10_485_760 ? 1 : 0)} MiB`;

function formatUptime(ms: number | null): string {
  if (ms === null) return '—';
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${String(minutes)} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${String(hours)} h ${String(minutes % 60)} min`;
  return `${String(Math.floor(hours / 24))} days`;
}

function Meter({
  label,
  percent,
  limit,
  detail,
}: {
  label: string;
  percent: number | null;
  limit: number;
  detail: string;
}) {
  const color = percent === null ? 'gray' : percent >= limit ? 'red' : percent >= limit * 0.85 ? 'orange' : 'teal';
  return (
    <Stack gap={2}>
      <Group justify="space-between">
        <Text size="xs" c="dimmed">
          {label}
        </Text>
        <Text size="xs">{detail}</Text>
      </Group>
      <Progress value={Math.min(100, percent ?? 0)} color={color} aria-label={label} />
    </Stack>
  );
}

function Count({ label, value }: { label: string; value: number | string | null }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600}>
        {value ?? '—'}
      </Text>
    </Stack>
  );
}

export function NodeFactsCard({
  clusterId,
  node,
  linked,
}: {
  clusterId: string;
  node: NodeFactsEntry;
  linked: boolean;
}) {
  const title = linked ? (
    <Anchor component={Link} href={nodePath(clusterId, node.nodeId)} fw={600}>
      {node.nodeName}
    </Anchor>
  ) : (
    <Text fw={600}>{node.nodeName}</Text>
  );
  if (!node.ok) {
    return (
      <Paper withBorder p="sm" radius="md" data-testid="node-facts" data-node={node.nodeName}>
        <Stack gap="xs">
          {title}
          <Alert color="orange" title="Did not answer">
            {node.failure.kind}: {node.failure.message}. {node.failure.advice}
          </Alert>
        </Stack>
      </Paper>
    );
  }
  const facts: NodeFacts = node;
  return (
    <Paper withBorder p="sm" radius="md" data-testid="node-facts" data-node={facts.nodeName}>
      <Stack gap="sm">
        <Group justify="space-between">
          {title}
          <Group gap="xs">
            {facts.version && <Badge variant="light">Artemis {facts.version}</Badge>}
            <Badge variant="light" color="gray">
              up {formatUptime(facts.uptimeMs)}
            </Badge>
            {facts.journalType && (
              <Badge variant="light" color="gray">
                journal {facts.journalType}
              </Badge>
            )}
          </Group>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Meter
            label="Address memory of global-max-size"
            percent={facts.memory.percent}
            limit={100}
            detail={`${mib(facts.memory.usedBytes)} of ${mib(facts.memory.maxBytes)} (${String(facts.memory.percent ?? '—')}%)`}
          />
          <Meter
            label="Disk store of max-disk-usage"
            percent={
              facts.disk.usedPercent !== null && facts.disk.maxPercent
                ? (facts.disk.usedPercent / facts.disk.maxPercent) * 100
                : null
            }
            limit={100}
            detail={`${String(facts.disk.usedPercent ?? '—')}% used, producers block at ${String(facts.disk.maxPercent ?? '—')}%`}
          />
        </SimpleGrid>
        <Group gap="xl">
          <Count label="Connections" value={facts.connections} />
          <Count label="Sessions" value={facts.sessions} />
          <Count label="Consumers" value={facts.consumers} />
          <Count label="Addresses" value={facts.addressCount} />
          <Count label="Queues" value={facts.queueCount} />
          <Count label="Paging addresses" value={facts.pagingAddresses.length} />
        </Group>
        {facts.warnings.map((warning) => (
          <Alert
            key={`${warning.code}-${warning.message}`}
            color={warning.level === 'danger' ? 'red' : 'orange'}
            py={6}
            data-testid="node-warning"
            data-code={warning.code}
          >
            <Text size="sm">{warning.message}</Text>
          </Alert>
        ))}
      </Stack>
    </Paper>
  );
}
