'use client';
// The home page's fleet at a glance (slot `home.empty`): the fleet's totals, then a card per visible cluster with
// its health in words, nodes, HA, capability problems, backlog, dead-letter depth and worst verdicts, each with
// how old its numbers are. Live: the fleet-wide `health` and `consumer-health` signals refetch it (polling at the
// scrape's cadence while the stream is down). Beside a card's health, the `fleet.cluster.badges` slot (declared in
// contributions.ts) shows other modules' marks, e.g. alerting's count of firing alerts.
import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { VerdictBadge } from '@/ui/parts/verdict-badge.tsx';
import { useTRPC, type RouterOutputs } from '@/ui/data/trpc.ts';
import { PageSection } from '@/ui/parts/page-section.tsx';
import { Slot } from '@/ui/slots/slot.tsx';
import { useLive } from '@/ui/stream/live-query.ts';
import { TimeAgo } from '@/ui/time/time-ago.tsx';

type FleetCluster = RouterOutputs['triage']['fleet']['clusters'][number];

const HEALTH_COLORS: Record<FleetCluster['health'], string> = {
  UP: 'teal',
  DEGRADED: 'yellow',
  DOWN: 'red',
  UNKNOWN: 'gray',
};

const number = (value: number) => value.toLocaleString('en');

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} ff="monospace" data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}

function ClusterCard({ cluster }: { cluster: FleetCluster }) {
  return (
    <Card withBorder radius="md" padding="sm" data-testid="fleet-cluster" data-cluster={cluster.name}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Anchor component={Link} href={`/clusters/${cluster.id}`} fw={600} truncate>
            {cluster.name}
          </Anchor>
          <Group gap={6} wrap="nowrap">
            <Slot id="fleet.cluster.badges" props={{ clusterId: cluster.id }} />
            <Badge color={HEALTH_COLORS[cluster.health]} variant="light" data-health={cluster.health}>
              {cluster.health.toLowerCase()}
            </Badge>
          </Group>
        </Group>
        <Text size="xs" c="dimmed">
          {cluster.environment ? `${cluster.environment.name} · ` : ''}
          {cluster.nodeCount} node{cluster.nodeCount === 1 ? '' : 's'} ({cluster.logicalNodeCount} logical)
          {cluster.splitBrainSince ? ' · split-brain' : ''}
        </Text>
        {cluster.problems.length > 0 && (
          <Text size="xs" c={cluster.health === 'DOWN' ? 'red' : 'yellow.8'} data-testid="fleet-problems">
            {cluster.problems.join('; ')}
          </Text>
        )}
        {cluster.queues && (
          <Group gap="lg">
            <Figure label="Backlog" value={number(cluster.queues.backlog)} testId="fleet-backlog" />
            <Figure label="Dead letters" value={number(cluster.queues.deadLetterDepth)} testId="fleet-dlq" />
            <Figure label="Queues" value={number(cluster.queues.count)} />
            {cluster.queues.growing > 0 && <Figure label="Growing" value={number(cluster.queues.growing)} />}
          </Group>
        )}
        {cluster.verdicts?.worst && (
          <Group gap={6}>
            <Text size="xs" c="dimmed">
              Worst:
            </Text>
            <VerdictBadge verdict={cluster.verdicts.worst} />
            <Text size="xs" c="dimmed">
              {cluster.verdicts.counts[cluster.verdicts.worst]} queue
              {cluster.verdicts.counts[cluster.verdicts.worst] === 1 ? '' : 's'}
            </Text>
          </Group>
        )}
        <Text size="xs" c="dimmed">
          {cluster.queues?.scrapedAt ? (
            <>
              queues <TimeAgo iso={cluster.queues.scrapedAt} />
            </>
          ) : (
            'no queues listed yet'
          )}
          {cluster.verdicts?.evaluatedAt && (
            <>
              {' · judged '}
              <TimeAgo iso={cluster.verdicts.evaluatedAt} />
            </>
          )}
        </Text>
      </Stack>
    </Card>
  );
}

/** The whole fleet, live on the fleet-wide health and consumer-health signals (the home and Triage's notice). */
export function useFleet() {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.triage.fleet.queryOptions({}),
    ...useLive(['health', 'consumer-health']),
    placeholderData: keepPreviousData,
  });
}

export function FleetHome() {
  const data = useFleet().data;
  if (!data || data.clusters.length === 0) return null;
  const { totals } = data;
  return (
    <PageSection
      title="Fleet"
      description={`${number(totals.clusters)} cluster${totals.clusters === 1 ? '' : 's'}: ${totals.down} down, ${totals.degraded} degraded.`}
    >
      <Group gap="xl" data-testid="fleet-totals">
        <Figure label="Backlog" value={number(totals.backlog)} />
        <Figure label="Dead letters" value={number(totals.deadLetterDepth)} />
        <Figure label="Queues needing attention" value={number(totals.needingAttention)} testId="fleet-attention" />
        <Anchor component={Link} href="/triage" size="sm">
          Open triage
        </Anchor>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
        {data.clusters.map((cluster) => (
          <ClusterCard key={cluster.id} cluster={cluster} />
        ))}
      </SimpleGrid>
    </PageSection>
  );
}
