'use client';
// The one "pick a cluster" select of the console, and the cluster names its lists show: both from the clusters the
// viewer may see (one query, shared by every caller on a page). A screen switching clusters, a list filtered to one
// and a form naming one all use it, so a cluster is offered alike everywhere: by name, with its environment.
import { Select, type MantineSize } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/ui/data/trpc.ts';

/** Every cluster the viewer may see, by name (no fleet holds more than this). */
const VISIBLE_CLUSTERS = { sort: 'name', page: 1, pageSize: 500 } as const;

function useVisibleClusters() {
  const trpc = useTRPC();
  return useQuery(trpc.clusters.list.queryOptions(VISIBLE_CLUSTERS)).data?.items ?? [];
}

/** A cluster id → its name, for lists that hold ids; an id the viewer cannot see shows its first characters. */
export function useClusterName(): (clusterId: string) => string {
  const names = new Map(useVisibleClusters().map((cluster) => [cluster.id, cluster.name]));
  return (clusterId) => names.get(clusterId) ?? clusterId.slice(0, 8);
}

export function ClusterPicker({
  value,
  onChange,
  label,
  required = false,
  everyCluster = false,
  size,
  w,
}: {
  value: string | null | undefined;
  onChange: (clusterId: string | undefined) => void;
  /** Shown above the select (a form field); without it the select is named "Cluster" for assistive technology. */
  label?: string;
  required?: boolean;
  /** A filter: no cluster picked means every cluster, and the pick can be cleared. */
  everyCluster?: boolean;
  size?: MantineSize;
  w?: number;
}) {
  const options = useVisibleClusters().map((cluster) => ({
    value: cluster.id,
    label: cluster.environment ? `${cluster.name} (${cluster.environment.name})` : cluster.name,
  }));
  return (
    <Select
      {...(label ? { label } : { 'aria-label': 'Cluster' })}
      required={required}
      placeholder={everyCluster ? 'Every cluster' : undefined}
      clearable={everyCluster}
      allowDeselect={everyCluster}
      data={options}
      value={value ?? null}
      onChange={(picked) => onChange(picked ?? undefined)}
      searchable
      size={size}
      w={w}
    />
  );
}
