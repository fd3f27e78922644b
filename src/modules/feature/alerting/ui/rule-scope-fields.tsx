'use client';
// Where a rule looks: every cluster, one environment's or one cluster; the environment or cluster asked for only
// when the scope needs it.
import { SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/ui/data/trpc.ts';
import { ClusterPicker } from '@/modules/platform/clusters/ui.ts';
import type { RuleDraft, Scope } from './rule-draft.ts';

const SCOPES: ReadonlyArray<{ value: Scope; label: string }> = [
  { value: 'all', label: 'Every cluster' },
  { value: 'environment', label: 'An environment' },
  { value: 'cluster', label: 'A cluster' },
];

export function RuleScopeFields({ draft, set }: { draft: RuleDraft; set: (change: Partial<RuleDraft>) => void }) {
  const trpc = useTRPC();
  const environments = useQuery(trpc.clusters.environments.list.queryOptions({ sort: 'name', page: 1, pageSize: 500 }));
  return (
    <>
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          Scope
        </Text>
        <SegmentedControl
          value={draft.scope}
          onChange={(scope) => set({ scope })}
          data={[...SCOPES]}
          aria-label="Scope"
        />
      </Stack>
      {draft.scope === 'cluster' && (
        <ClusterPicker
          label="Cluster"
          required
          value={draft.clusterId}
          onChange={(clusterId) => set({ clusterId: clusterId ?? null })}
        />
      )}
      {draft.scope === 'environment' && (
        <Select
          label="Environment"
          required
          data={(environments.data?.items ?? []).map((environment) => ({
            value: environment.id,
            label: environment.name,
          }))}
          value={draft.environmentId}
          onChange={(environmentId) => set({ environmentId })}
        />
      )}
    </>
  );
}
