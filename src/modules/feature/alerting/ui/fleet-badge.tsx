'use client';
// Alerting's mark on a cluster's card of the fleet home (triage's `fleet.cluster.badges` slot): how many alerts fire
// there now, red when one is critical, linking to them. One read for the whole fleet, shared by every card; live on
// the `alerts` signal. Nothing fires: no mark.
import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/ui/data/trpc.ts';
import { useLive } from '@/ui/stream/live-query.ts';

export function FiringBadge({ clusterId }: { clusterId: string }) {
  const trpc = useTRPC();
  const counts = useQuery({ ...trpc.alerting.firingByCluster.queryOptions({}), ...useLive(['alerts']) });
  const cluster = counts.data?.items.find((item) => item.clusterId === clusterId);
  if (!cluster || cluster.firing === 0) return null;
  return (
    <Badge
      component={Link}
      href={`/alerts?cluster=${clusterId}`}
      color={cluster.critical > 0 ? 'red' : 'orange'}
      variant="filled"
      style={{ cursor: 'pointer' }}
      data-testid="fleet-firing"
      data-firing={cluster.firing}
      title={`${cluster.firing} firing (${cluster.critical} critical, ${cluster.unacknowledged} not acknowledged)`}
    >
      {cluster.firing} firing
    </Badge>
  );
}
