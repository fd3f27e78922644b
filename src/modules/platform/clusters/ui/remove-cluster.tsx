'use client';
// Removing a cluster from Flotilla (its nodes and ledger; the brokers are not touched), held to confirm; then back
// to the clusters.
import { Stack } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useTRPC } from '@/ui/data/trpc.ts';
import { HoldToConfirm } from '@/ui/parts/hold-to-confirm.tsx';
import { ProblemView } from '@/ui/parts/problem-view.tsx';

export function RemoveCluster({ clusterId }: { clusterId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.clusters.remove.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries(trpc.clusters.pathFilter());
        router.push('/clusters');
      },
    }),
  );
  return (
    <Stack gap={4}>
      <HoldToConfirm
        action="Remove"
        count={1}
        noun={['cluster', 'clusters']}
        disabled={remove.isPending}
        onConfirm={() => remove.mutate({ clusterId })}
      />
      {remove.isError && <ProblemView error={remove.error} />}
    </Stack>
  );
}
