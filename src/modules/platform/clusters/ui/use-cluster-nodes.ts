'use client';
// A cluster and its nodes, live on the `topology` and `health` topics: what the overview and the topology screen
// both read.
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/ui/data/trpc.ts';
import { useLive } from '@/ui/stream/live-query.ts';

export function useClusterNodes(clusterId: string) {
  const trpc = useTRPC();
  const live = useLive(['topology', 'health']);
  const cluster = useQuery({ ...trpc.clusters.get.queryOptions({ clusterId }), ...live });
  const nodes = useQuery({ ...trpc.clusters.nodes.queryOptions({ clusterId }), ...live });
  return { cluster, nodes };
}
