'use client';
// One provider's group → role mappings and default role, edited as a whole (mappings-form.tsx) and saved with one
// PUT (which replaces the set).
import { Loader, Modal } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/ui/data/trpc.ts';
import { ProblemView } from '@/ui/parts/problem-view.tsx';
import { MappingsForm, type Provider } from './mappings-form.tsx';

export function GroupMappingsModal({ provider, onClose }: { provider: Provider; onClose: () => void }) {
  const trpc = useTRPC();
  const current = useQuery(trpc.security.groupMappings.get.queryOptions({ providerId: provider.id }));
  return (
    <Modal opened onClose={onClose} title={`Group mappings: ${provider.label}`} size="xl">
      {current.isError && <ProblemView error={current.error} />}
      {current.isPending && <Loader size="sm" />}
      {/* The form starts from what is stored now; a save replaces it as a whole. */}
      {current.data && <MappingsForm provider={provider} stored={current.data} onClose={onClose} />}
    </Modal>
  );
}
